import { useParams } from 'react-router-dom';
import { SharedTripPage } from '../sharing/components/SharedTripPage';
import '../styles/home.css';
import '../styles/layout.css';
import '../styles/map.css';
import '../styles/sharing.css';
import '../styles/trips.css';

/** /s/:token (public): a trip shown by its share link (frontend/src/sharing). */
export function Component() {
  const { token = '' } = useParams();
  return <SharedTripPage token={token} />;
}
