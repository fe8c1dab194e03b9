import type { ReactNode } from 'react';

interface PagePlaceholderProps {
  title: string;
  children: ReactNode;
  icon?: ReactNode;
  extra?: ReactNode;
}

/** An honest "coming soon" page body for sections that later issues fill in. */
export function PagePlaceholder({ title, children, icon, extra }: PagePlaceholderProps) {
  return (
    <section className="page" aria-labelledby="page-title">
      <header className="page-header">
        <h1 id="page-title">{title}</h1>
      </header>
      <div className="placeholder-card">
        {icon ? (
          <div className="placeholder-icon" aria-hidden="true">
            {icon}
          </div>
        ) : null}
        <p className="placeholder-text">{children}</p>
        {extra}
      </div>
    </section>
  );
}
