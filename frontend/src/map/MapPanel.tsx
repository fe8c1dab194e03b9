import { mapHeightFor } from './layout';
import { useMapContent } from './MapContext';
import type { MapUser } from './types';
import { useWindowWidth } from './useWindowWidth';
import { WorldMap } from './WorldMap';

/**
 * The map column of the protected layout: the world map with the current page's markers,
 * its height following the spec breakpoints (60vh / 70vh / full height).
 */
export function MapPanel({ user }: { user?: MapUser }) {
  const width = useWindowWidth();
  const { markers, focusedId, focusNonce } = useMapContent();
  return (
    <aside aria-label="Map" className="map-column" style={{ height: mapHeightFor(width) }}>
      <div className="map-canvas">
        <WorldMap markers={markers} focusedId={focusedId} focusNonce={focusNonce} user={user} />
      </div>
    </aside>
  );
}
