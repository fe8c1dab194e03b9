import type { InfoWindowSlots } from './InfoWindow';
import { mapHeightFor } from './layout';
import { useMapContent } from './MapContext';
import type { MapUser } from './types';
import { useWindowWidth } from './useWindowWidth';
import { WorldMap } from './WorldMap';

interface MapPanelProps extends InfoWindowSlots {
  user?: MapUser;
}

/**
 * The map column of the protected layout: the world map with the current page's markers,
 * its height following the spec breakpoints (60vh / 70vh / full height). The layout gives it
 * the info window's slots (the journal box, the itinerary editor).
 */
export function MapPanel({ user, renderJournal, renderItinerary }: MapPanelProps) {
  const width = useWindowWidth();
  const { markers, focusedId, focusNonce } = useMapContent();
  return (
    <aside aria-label="Map" className="map-column" style={{ height: mapHeightFor(width) }}>
      <div className="map-canvas">
        <WorldMap
          markers={markers}
          focusedId={focusedId}
          focusNonce={focusNonce}
          user={user}
          renderJournal={renderJournal}
          renderItinerary={renderItinerary}
        />
      </div>
    </aside>
  );
}
