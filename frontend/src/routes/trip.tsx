import type { MapMarker } from '../map/types';
import { useMapMarkers } from '../map/MapContext';
import { Link } from 'react-router-dom';
import { PagePlaceholder } from '../components/PagePlaceholder';
import { PinIcon } from '../components/icons';

const NO_MARKERS: MapMarker[] = [];

export function Component() {
  // Real markers arrive with this screen's issue; until then the map is empty (0,0, zoom 2).
  useMapMarkers(NO_MARKERS);
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
