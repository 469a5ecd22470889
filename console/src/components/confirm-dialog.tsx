import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

export interface ConfirmDialogProps {
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  /** While the confirmed action runs: both buttons wait. */
  busy?: boolean;
  /** While what the action needs is missing: the confirm button waits. */
  incomplete?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * A modal `<dialog>`: the rest of the page is inert while it is open, Escape cancels, and focus
 * starts on Cancel (the harmless choice) and returns to the button that opened it when it closes.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  busy,
  incomplete,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    element.showModal();
    cancel.current?.focus();
    return () => {
      if (element.open) element.close();
      opener?.focus();
    };
  }, []);

  return (
    <dialog
      ref={dialog}
      class="dialog"
      aria-labelledby="dialog-title"
      aria-describedby="dialog-message"
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <h2 id="dialog-title">{title}</h2>
      <div id="dialog-message">{children}</div>
      <div class="actions">
        <button type="button" ref={cancel} class="button" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
        <button type="button" class="button button-danger" disabled={busy || incomplete} onClick={onConfirm}>
          {busy ? 'Working…' : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
