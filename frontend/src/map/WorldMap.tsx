import { lazy, Suspense } from 'react';
import type { MapProviderProps } from './providerApi';
import { useGoogleLoadOptions, useMapProvider } from './useMapProvider';

// Each provider is its own lazy chunk: the keyless page never downloads Google's, and the
// MapLibre chunk loads only where a map is shown.
const KeylessMap = lazy(() => import('./keyless/KeylessMap'));
const GoogleMapView = lazy(() => import('./google/GoogleMapView'));

export type WorldMapProps = MapProviderProps;

function MapLoading() {
  return (
    <div className="map-status map-status--quiet" role="status">
      <span className="visually-hidden">Loading the map…</span>
    </div>
  );
}

/**
 * The one map component of the app. Screens give it markers (through the map context) and
 * never know which provider runs: Google Maps when a key is configured, else the keyless map.
 */
export function WorldMap(props: WorldMapProps) {
  const choice = useMapProvider();
  const googleOptions = useGoogleLoadOptions();
  if (!choice) return <MapLoading />;
  return (
    <Suspense fallback={<MapLoading />}>
      {choice.kind === 'google' ? (
        <GoogleMapView apiKey={choice.apiKey} loadOptions={googleOptions} {...props} />
      ) : (
        <KeylessMap {...props} />
      )}
    </Suspense>
  );
}
