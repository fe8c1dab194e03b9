import { useEffect } from 'react';

interface ToastProps {
  message: string;
  onDismiss: () => void;
  /** Auto-dismiss after this many ms; 0 keeps it until dismissed. */
  timeout?: number;
  tone?: 'error' | 'success';
}

/** A visible, announced notice in the corner of the screen (used instead of window.alert). */
export function Toast({ message, onDismiss, timeout = 8000, tone = 'error' }: ToastProps) {
  useEffect(() => {
    if (!timeout) return;
    const timer = window.setTimeout(onDismiss, timeout);
    return () => window.clearTimeout(timer);
  }, [message, timeout, onDismiss]);

  return (
    <div className={`toast toast-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      <span className="toast-icon" aria-hidden="true">
        {tone === 'error' ? '!' : '✓'}
      </span>
      <p className="toast-message">{message}</p>
      <button type="button" className="toast-close" aria-label="Dismiss" onClick={onDismiss}>
        ×
      </button>
    </div>
  );
}
