import { PagePlaceholder } from '../components/PagePlaceholder';
import { TripsIcon } from '../components/icons';

export function Component() {
  return (
    <PagePlaceholder title="Trips" icon={<TripsIcon />}>
      Your trips will live here soon: journeys with dated destinations, photos and stories, all
      pinned on the map.
    </PagePlaceholder>
  );
}
