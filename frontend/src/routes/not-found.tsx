import { Link } from 'react-router-dom';
import { LogoMark } from '../components/Logo';
import '../styles/auth.css';

export function Component() {
  return (
    <div className="auth-page">
      <main className="auth-card not-found" aria-labelledby="nf-title">
        <LogoMark size={44} />
        <h1 id="nf-title">404: Page Not Found</h1>
        <p className="auth-subtitle">
          This place isn&apos;t on our map. The link may be broken or the page may have moved.
        </p>
        <Link to="/home" className="btn btn-primary btn-block">
          Back to home
        </Link>
      </main>
    </div>
  );
}
