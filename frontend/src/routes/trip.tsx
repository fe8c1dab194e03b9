import { Link } from 'react-router-dom';
import { PagePlaceholder } from '../components/PagePlaceholder';
import { PinIcon } from '../components/icons';

export function Component() {
  return (
    <PagePlaceholder
      title="Trip"
      icon={<PinIcon />}
      extra={
        <Link to="/trips" className="btn btn-ghost">
          Back to Trips
        </Link>
      }
    >
      Trip details arrive soon: the trip&apos;s name, dates and destinations.
    </PagePlaceholder>
  );
}
