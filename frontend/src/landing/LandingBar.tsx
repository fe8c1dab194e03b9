import { Link } from 'react-router-dom';
import { Brand } from '../components/Logo';
import type { LandingSession } from './useSession';

/**
 * The landing page's fixed top bar: the logo and brand, then Log In and Sign Up for a visitor,
 * or the way into the app for a signed-in traveller (known once the session check answers).
 */
export function LandingBar({ session }: { session: LandingSession }) {
  return (
    <header className="landing-bar">
      <Brand />
      <nav className="landing-actions" aria-label="Account">
        {session.signedIn ? (
          <>
            {session.username ? (
              <span className="landing-greeting">Hi, {session.username}</span>
            ) : null}
            <Link to="/trips" className="btn btn-primary">
              Open my map
            </Link>
          </>
        ) : (
          <>
            <Link to="/login" className="btn btn-ghost">
              Log In
            </Link>
            <Link to="/register" className="btn btn-primary">
              Sign Up
            </Link>
          </>
        )}
      </nav>
    </header>
  );
}
