import type { MapMarker } from '../map/types';
import { useMapMarkers } from '../map/MapContext';
import { PagePlaceholder } from '../components/PagePlaceholder';
import { TripsIcon } from '../components/icons';

const NO_MARKERS: MapMarker[] = [];

export function Component() {
  // Real markers arrive with this screen's issue; until then the map is empty (0,0, zoom 2).
  useMapMarkers(NO_MARKERS);
  return (
    <PagePlaceholder title="Trips" icon={<TripsIcon />}>
      Your trips will live here soon: journeys with dated destinations, photos and stories, all
      pinned on the map.
    </PagePlaceholder>
  );
}
