import type { ComponentChildren } from 'preact';

/** An error in words, announced as it appears. Rendered empty so that the region exists before its text. */
export function ErrorMessage({ message }: { message: string | null }) {
  return (
    <div role="alert" class={message ? 'message message-error' : 'message-empty'}>
      {message}
    </div>
  );
}

/** A result (added, removed), announced politely. */
export function StatusMessage({ message }: { message: string | null }) {
  return (
    <div role="status" class={message ? 'message message-ok' : 'message-empty'}>
      {message}
    </div>
  );
}

export function Loading({ children }: { children?: ComponentChildren }) {
  return (
    <p class="loading" aria-live="polite">
      <span class="spinner" aria-hidden="true" />
      {children ?? 'Loading…'}
    </p>
  );
}
