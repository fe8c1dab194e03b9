import { StrictMode, useCallback, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { mapHeightFor } from '../src/map/layout';
import { PlaceAutocomplete } from '../src/map/PlaceAutocomplete';
import type { PlaceChoice } from '../src/map/places';
import { MapSettingsContext, type MapSettings } from '../src/map/useMapProvider';
import { useWindowWidth } from '../src/map/useWindowWidth';
import { WorldMap } from '../src/map/WorldMap';
import { markerTitle, type MapHandle, type MapMarker } from '../src/map/types';
import { FIXTURE_MARKERS, FIXTURE_USER, WORLD_MARKERS } from './fixtures';
import '../src/styles/global.css';
import '../src/styles/layout.css';
import './harness.css';

/**
 * A test page for the real map component (not part of the production build): a list column
 * and the map column, with fixture markers. Query: `markers=none|single|world` for the empty
 * map, one marker or markers all over the world,
 * `retryBaseMs=` to shorten Google's retry delays. `window.__map` is the map's handle.
 */
declare global {
  interface Window {
    __map?: MapHandle | null;
    __mapEvents?: string[];
  }
}

const params = new URLSearchParams(window.location.search);
const MARKER_SETS: Record<string, MapMarker[]> = {
  none: [],
  single: FIXTURE_MARKERS.filter((m) => m.id === 'lisbon'),
  world: [...FIXTURE_MARKERS, ...WORLD_MARKERS],
};
const markers: MapMarker[] = MARKER_SETS[params.get('markers') ?? ''] ?? FIXTURE_MARKERS;
const retryBaseMs = Number(params.get('retryBaseMs'));
const settings: MapSettings = {
  google: {
    retryBaseDelayMs: Number.isFinite(retryBaseMs) && retryBaseMs > 0 ? retryBaseMs : undefined,
    attemptTimeoutMs: params.has('retryBaseMs') ? 3000 : undefined,
  },
};
window.__mapEvents = [];

function Harness() {
  const width = useWindowWidth();
  const [focused, setFocused] = useState<{ id: string; nonce: number } | null>(null);
  const [picked, setPicked] = useState<string>('');
  const onReady = useCallback((handle: MapHandle | null) => {
    window.__map = handle;
    window.__mapEvents?.push(handle ? `ready:${handle.provider}` : 'gone');
  }, []);
  const onSelectionChange = useCallback((marker: MapMarker | null) => {
    window.__mapEvents?.push(marker ? `select:${marker.id}` : 'close');
  }, []);
  const onSelect = (place: PlaceChoice) =>
    setPicked(`${place.label} (${place.latitude.toFixed(2)}, ${place.longitude.toFixed(2)})`);

  return (
    <div className="harness">
      <section className="harness-list" aria-label="Destinations">
        <h1>Map harness</h1>
        <PlaceAutocomplete
          label="Find a place"
          onSelect={onSelect}
          onInvalid={(reason) =>
            setPicked(
              reason === 'no-location'
                ? 'Please select a valid destination.'
                : 'Please select a valid place.',
            )
          }
        />
        <p className="harness-picked" data-testid="picked" aria-live="polite">
          {picked}
        </p>
        <ul className="harness-destinations">
          {markers.map((m) => (
            <li key={m.id}>
              <button
                type="button"
                className="btn btn-ghost"
                onClick={() => setFocused((f) => ({ id: m.id, nonce: (f?.nonce ?? 0) + 1 }))}
              >
                {markerTitle(m)}
              </button>
            </li>
          ))}
        </ul>
      </section>
      <aside
        className="map-column harness-map"
        aria-label="Map"
        style={{ height: mapHeightFor(width) }}
      >
        <div className="map-canvas">
          <WorldMap
            markers={markers}
            user={FIXTURE_USER}
            focusedId={focused?.id ?? null}
            focusNonce={focused?.nonce ?? 0}
            onReady={onReady}
            onSelectionChange={onSelectionChange}
            renderJournal={(marker, { readOnly }) => (
              <div className="harness-slot" data-testid="journal-slot">
                <strong>{readOnly ? 'Journal (read-only)' : 'Journal'}</strong>
                <span>No story shared yet.</span>
              </div>
            )}
            renderItinerary={(marker) => (
              <div className="harness-slot" data-testid="itinerary-slot">
                <strong>Itinerary</strong>
                <span>Plan for {marker.place} arrives with the bucket list issue.</span>
              </div>
            )}
          />
        </div>
      </aside>
    </div>
  );
}

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');
createRoot(container).render(
  <StrictMode>
    <MapSettingsContext.Provider value={settings}>
      <Harness />
    </MapSettingsContext.Provider>
  </StrictMode>,
);
