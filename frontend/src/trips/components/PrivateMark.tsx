import { LockIcon } from '../../components/icons';
import { TRIP_TEXTS } from '../api';

/** The small lock of a private trip: named "Private trip" and titled so. */
export function PrivateMark() {
  return (
    <span
      className="private-mark"
      role="img"
      aria-label={TRIP_TEXTS.privateTrip}
      title={TRIP_TEXTS.privateTrip}
    >
      <LockIcon />
    </span>
  );
}
