import type { MapMarker } from '../map/types';
import { useMapMarkers } from '../map/MapContext';
import { PagePlaceholder } from '../components/PagePlaceholder';
import { BucketIcon } from '../components/icons';

const NO_MARKERS: MapMarker[] = [];

export function Component() {
  // Real markers arrive with this screen's issue; until then the map is empty (0,0, zoom 2).
  useMapMarkers(NO_MARKERS);
  return (
    <PagePlaceholder title="Bucket List" icon={<BucketIcon />}>
      Your bucket list arrives soon: search for places you dream of visiting and plan an itinerary
      for each.
    </PagePlaceholder>
  );
}
