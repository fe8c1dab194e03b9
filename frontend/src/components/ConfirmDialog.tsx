import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useModalDialog } from './useModalDialog';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  description?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** The confirm action is under way: both buttons wait (still focusable), Escape does nothing. */
  busy?: boolean;
  /** Shown in the dialog (e.g. the action failed); the dialog stays open. */
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * A modal yes/no question (an `alertdialog` on the native `<dialog>`): the rest of the page is
 * inert while it is open, Tab and Shift+Tab cycle between its buttons, Escape answers No, focus
 * starts on No (the safe answer) and returns to the opener when it closes.
 */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel = 'Yes',
  cancelLabel = 'No',
  busy = false,
  error,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  const ref = useModalDialog(open, () => cancelRef.current?.focus());
  const titleId = useId();
  const descriptionId = useId();
  const errorId = useId();

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key === 'Escape') {
      // Ours, not the browser's: the page's other Escape handlers (the map) leave it alone.
      event.preventDefault();
      event.stopPropagation();
      if (!busy) onCancel();
      return;
    }
    if (event.key !== 'Tab') return;
    const focusable = Array.from(
      ref.current?.querySelectorAll<HTMLElement>(
        'button:not([disabled]), [href], [tabindex]:not([tabindex="-1"])',
      ) ?? [],
    ).filter((el) => el.tabIndex >= 0);
    if (focusable.length === 0) return;
    const first = focusable[0]!;
    const last = focusable[focusable.length - 1]!;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  const describedBy = [description ? descriptionId : null, error ? errorId : null]
    .filter(Boolean)
    .join(' ');

  return (
    <dialog
      ref={ref}
      className="confirm-dialog"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={describedBy || undefined}
      aria-busy={busy || undefined}
      onKeyDown={onKeyDown}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
      onClick={(event) => {
        // a click on the backdrop (the dialog element itself, outside its box) answers No
        if (event.target === ref.current && !busy) {
          const box = ref.current.getBoundingClientRect();
          const inside =
            event.clientX >= box.left &&
            event.clientX <= box.right &&
            event.clientY >= box.top &&
            event.clientY <= box.bottom;
          if (!inside) onCancel();
        }
      }}
    >
      {open ? (
        <div className="confirm-body">
          <h2 id={titleId} className="confirm-title">
            {title}
          </h2>
          {description ? (
            <div id={descriptionId} className="confirm-description">
              {description}
            </div>
          ) : null}
          {error ? (
            <p id={errorId} className="form-alert" role="alert">
              {error}
            </p>
          ) : null}
          <div className="confirm-actions">
            <button
              ref={cancelRef}
              type="button"
              className="btn btn-ghost"
              aria-disabled={busy || undefined}
              onClick={() => {
                if (!busy) onCancel();
              }}
            >
              {cancelLabel}
            </button>
            <button
              type="button"
              className="btn btn-danger"
              aria-disabled={busy || undefined}
              onClick={() => {
                if (!busy) onConfirm();
              }}
            >
              {busy ? <span className="btn-spinner" aria-hidden="true" /> : null}
              {confirmLabel}
            </button>
          </div>
        </div>
      ) : null}
    </dialog>
  );
}
