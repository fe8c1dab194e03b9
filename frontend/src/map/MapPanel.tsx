import { mapHeightFor } from './layout';
import { useWindowWidth } from './useWindowWidth';

/**
 * The map column of the protected layout. For now an empty, dark placeholder whose height
 * follows the spec breakpoints; the map issue renders the real map inside `.map-canvas`.
 */
export function MapPanel() {
  const width = useWindowWidth();
  return (
    <aside aria-label="Map" className="map-column" style={{ height: mapHeightFor(width) }}>
      <div className="map-canvas">
        <div className="map-placeholder" aria-hidden="true">
          <svg className="map-graticule" viewBox="0 0 200 200" preserveAspectRatio="xMidYMid meet">
            <circle cx="100" cy="100" r="78" />
            <ellipse cx="100" cy="100" rx="30" ry="78" />
            <ellipse cx="100" cy="100" rx="58" ry="78" />
            <line x1="100" y1="22" x2="100" y2="178" />
            <line x1="22" y1="100" x2="178" y2="100" />
            <path d="M32 62h136M32 138h136" />
          </svg>
        </div>
        <p className="map-caption">Your world map will appear here.</p>
      </div>
    </aside>
  );
}
