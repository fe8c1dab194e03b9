import { Landing } from '../landing/Landing';
import '../styles/home.css';

/** /home (public): the landing page (frontend/src/landing). */
export function Component() {
  return <Landing />;
}
