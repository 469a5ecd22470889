import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/** The first page of a load is left unfocused: its first Tab reaches the skip link, as on any page. */
let loaded = false;

/**
 * A page's heading, and its title in the tab. Focused when the console moves to another page, so
 * that a screen reader announces it and Tab continues from its top, as after a full page load.
 */
export function PageHeading({ title, children }: { title: string; children?: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Suppression list`;
    if (loaded) heading.current?.focus();
    loaded = true;
  }, [title]);
  return (
    <h1 ref={heading} tabIndex={-1}>
      {children ?? title}
    </h1>
  );
}
