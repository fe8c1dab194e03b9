import { Link } from 'react-router-dom';

/** The Wayfarer mark: a map pin holding a compass needle. Decorative; the brand text names it. */
export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg
      className="logo-mark"
      width={size}
      height={size}
      viewBox="0 0 32 32"
      aria-hidden="true"
      focusable="false"
    >
      <path
        fill="var(--accent)"
        d="M16 1.5C9.1 1.5 3.6 6.9 3.6 13.6 3.6 22.4 16 30.5 16 30.5s12.4-8.1 12.4-16.9C28.4 6.9 22.9 1.5 16 1.5Z"
      />
      <circle cx="16" cy="13.4" r="8" fill="var(--bg)" />
      <circle cx="16" cy="13.4" r="8" fill="none" stroke="var(--accent)" strokeOpacity=".35" />
      <path fill="var(--accent)" d="M16 6.6 18.2 13.4h-4.4Z" />
      <path fill="var(--text)" d="M16 20.2 13.8 13.4h4.4Z" />
      <circle cx="16" cy="13.4" r="1.3" fill="var(--bg)" />
    </svg>
  );
}

/** Logo and brand name, linking to the landing page. Its accessible name is "Wayfarer". */
export function Brand({ className = '' }: { className?: string }) {
  return (
    <Link to="/home" className={`brand ${className}`.trim()}>
      <LogoMark />
      <span className="brand-name">Wayfarer</span>
    </Link>
  );
}
