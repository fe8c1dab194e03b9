import type { MapMarker } from '../map/types';
import { useMapMarkers } from '../map/MapContext';
import { PagePlaceholder } from '../components/PagePlaceholder';
import { FriendsIcon } from '../components/icons';

const NO_MARKERS: MapMarker[] = [];

export function Component() {
  // Real markers arrive with this screen's issue; until then the map is empty (0,0, zoom 2).
  useMapMarkers(NO_MARKERS);
  return (
    <PagePlaceholder title="Friends" icon={<FriendsIcon />}>
      Friends arrive soon: your friends list, friend requests and their journeys on the map.
    </PagePlaceholder>
  );
}
