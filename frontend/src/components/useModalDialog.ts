import { useEffect, useRef, type RefObject } from 'react';

/**
 * A native `<dialog>` shown as a modal while `open` (the rest of the page inert): when it
 * opens, `onOpened` places the focus inside; when it closes, the focus returns to what had it
 * before (the opener), if it is still on the page. Unmounted open (a navigation), it is closed.
 */
export function useModalDialog(
  open: boolean,
  onOpened: () => void,
): RefObject<HTMLDialogElement | null> {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const opened = useRef(onOpened);
  opened.current = onOpened;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      dialog.showModal();
      opened.current();
    } else if (!open && dialog.open) {
      dialog.close();
      if (opener.current instanceof HTMLElement && opener.current.isConnected) {
        opener.current.focus();
      }
    }
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    return () => {
      if (dialog?.open) dialog.close();
    };
  }, []);

  return ref;
}
