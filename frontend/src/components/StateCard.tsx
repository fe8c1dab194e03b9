import type { ReactNode } from 'react';

/** A screen's read that failed: why (announced) and Try again. */
export function ErrorCard({
  message,
  onRetry,
  className,
}: {
  message: ReactNode;
  onRetry: (() => void) | undefined;
  /** Classes beside `state-card state-card--error`. */
  className?: string;
}) {
  return (
    <div className={`state-card state-card--error${className ? ` ${className}` : ''}`}>
      <p role="alert">{message}</p>
      <button type="button" className="btn btn-ghost" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}

/** A screen with nothing to show yet: its icon, what to do, and maybe its actions. */
export function EmptyCard({
  icon,
  text,
  children,
}: {
  icon: ReactNode;
  text: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="state-card">
      <span className="state-icon" aria-hidden="true">
        {icon}
      </span>
      <p className="state-text">{text}</p>
      {children}
    </div>
  );
}
