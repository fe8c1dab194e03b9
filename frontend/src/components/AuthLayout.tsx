import type { ReactNode } from 'react';
import { Brand } from './Logo';
import '../styles/auth.css';

/** The centred card shared by /login and /register. */
export function AuthLayout({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle: string;
  children: ReactNode;
  footer: ReactNode;
}) {
  return (
    <div className="auth-page">
      <main className="auth-card" aria-labelledby="auth-title">
        <Brand className="auth-brand" />
        <h1 id="auth-title">{title}</h1>
        <p className="auth-subtitle">{subtitle}</p>
        {children}
        <p className="auth-footer">{footer}</p>
      </main>
    </div>
  );
}
