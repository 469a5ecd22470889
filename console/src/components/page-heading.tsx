import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * A page's heading, and its title in the tab. Focused when the page opens, so that a screen reader
 * announces the new page and Tab continues from its top, as after a full page load.
 */
export function PageHeading({ title, children }: { title: string; children?: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Suppression list`;
    heading.current?.focus();
  }, [title]);
  return (
    <h1 ref={heading} tabIndex={-1}>
      {children ?? title}
    </h1>
  );
}
