import { GoogleMap, InfoWindowF, MarkerClustererF, MarkerF } from '@react-google-maps/api';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { carouselLayout } from '../carousel';
import {
  CLUSTER_BATCH_SIZE,
  CLUSTER_GRID_SIZE,
  CLUSTER_MIN_SIZE,
  DEFAULT_ZOOM,
  EMPTY_CENTER,
  EMPTY_ZOOM,
  FIT_PADDING,
  PIN_SIZE,
} from '../constants';
import { InfoWindow } from '../InfoWindow';
import { PIN_KIND_LABEL, pinDataUrl } from '../pin';
import type { GoogleLoadOptions, MapProviderProps } from '../providerApi';
import { focusView } from '../selection';
import { markerTitle, type MapHandle, type MapView, type MarkerKind } from '../types';
import { useElementSize } from '../useElementSize';
import { useMarkerSelection, type SelectionCamera } from '../useMarkerSelection';
import { useWindowWidth } from '../useWindowWidth';
import { boundsOf, clampZoom, markersKey } from '../viewport';
import { GOOGLE_DARK_STYLE, clusterIconUrl } from './style';
import { useGoogleMaps } from './useGoogleMaps';
import '../../styles/map.css';

export interface GoogleMapViewProps extends MapProviderProps {
  apiKey: string;
  loadOptions?: GoogleLoadOptions;
}

/** The Google provider: loads the Maps API (with retries), then renders the map. */
export default function GoogleMapView({ apiKey, loadOptions, ...props }: GoogleMapViewProps) {
  const status = useGoogleMaps(apiKey, loadOptions);
  if (status === 'loading') {
    return (
      <div className="map-status" role="status" data-provider="google">
        Loading Google Maps...
      </div>
    );
  }
  if (status === 'error') {
    return (
      <div className="map-status map-status--error" role="alert" data-provider="google">
        Error loading Google Maps
      </div>
    );
  }
  return <GoogleProviderMap {...props} />;
}

const CLUSTER_STYLES = [40, 48, 56].map((size) => ({
  url: clusterIconUrl(size),
  width: size,
  height: size,
  textColor: '#1b1305',
  textSize: 13,
  fontWeight: '700',
}));

function GoogleProviderMap({
  markers,
  user,
  focusedId,
  focusNonce,
  onReady,
  onSelectionChange,
  renderJournal,
  renderItinerary,
}: MapProviderProps) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<google.maps.Map | null>(null);
  const size = useElementSize(wrapRef);
  const windowWidth = useWindowWidth();
  const layout = carouselLayout(windowWidth, size);

  const camera = useRef<SelectionCamera | null>(null);
  useEffect(() => {
    if (!map) return;
    camera.current = {
      getView: () => ({
        center: map.getCenter()?.toJSON() ?? { ...EMPTY_CENTER },
        zoom: map.getZoom() ?? DEFAULT_ZOOM,
      }),
      moveTo: (view: MapView) => {
        map.panTo(view.center);
        map.setZoom(view.zoom);
      },
    };
    return () => {
      camera.current = null;
    };
  }, [map]);

  const { selected, interactive, select, close, peek } = useMarkerSelection(
    camera,
    markers,
    onSelectionChange,
  );

  // Fit to the markers, then clamp the zoom to [2, 6.5]; with none, 0,0 at zoom 2.
  const key = markersKey(markers);
  useEffect(() => {
    if (!map || peek().state[0]) return;
    const bounds = boundsOf(markers);
    if (!bounds) {
      map.setCenter(EMPTY_CENTER);
      map.setZoom(EMPTY_ZOOM);
      return;
    }
    map.fitBounds(
      { west: bounds.west, east: bounds.east, south: bounds.south, north: bounds.north },
      FIT_PADDING,
    );
    const listener = google.maps.event.addListenerOnce(map, 'idle', () => {
      const zoom = map.getZoom();
      if (zoom !== undefined && clampZoom(zoom) !== zoom) map.setZoom(clampZoom(zoom));
    });
    return () => listener.remove();
  }, [map, key, peek]);

  useEffect(() => {
    if (!map || !focusedId || peek().state[0]) return;
    const marker = markers.find((m) => m.id === focusedId);
    if (!marker) return;
    const view = focusView(marker);
    map.panTo(view.center);
    map.setZoom(view.zoom);
  }, [map, focusedId, focusNonce]);

  const actions = useRef({ select, peek, markers });
  actions.current = { select, peek, markers };
  useEffect(() => {
    if (!map || !onReady) return;
    const handle: MapHandle = {
      provider: 'google',
      getZoom: () => map.getZoom() ?? DEFAULT_ZOOM,
      getCenter: () => map.getCenter()?.toJSON() ?? { ...EMPTY_CENTER },
      focus: (id) => {
        const marker = actions.current.markers.find((m) => m.id === id);
        if (!marker || actions.current.peek().state[0]) return false;
        const view = focusView(marker);
        map.panTo(view.center);
        map.setZoom(view.zoom);
        return true;
      },
      select: (id) => {
        const marker = actions.current.markers.find((m) => m.id === id);
        return marker ? actions.current.select(marker) : false;
      },
      setView: (view) => {
        map.setCenter(view.center);
        map.setZoom(view.zoom);
      },
      close,
      isInteractive: () => actions.current.peek().state[1],
    };
    onReady(handle);
    return () => onReady(null);
  }, [map, onReady, close]);

  const options = useMemo<google.maps.MapOptions>(
    () => ({
      styles: GOOGLE_DARK_STYLE,
      backgroundColor: '#060a16',
      disableDefaultUI: true,
      zoomControl: true,
      clickableIcons: false,
      minZoom: 1,
      // Scrolling and gestures only while the selection tuple's second element is true.
      gestureHandling: interactive ? 'greedy' : 'none',
      scrollwheel: interactive,
      disableDoubleClickZoom: !interactive,
      keyboardShortcuts: interactive,
    }),
    [interactive],
  );

  const icons = useMemo(() => {
    const icon = (kind: MarkerKind): google.maps.Icon => ({
      url: pinDataUrl(kind),
      scaledSize: new google.maps.Size(PIN_SIZE, PIN_SIZE),
      anchor: new google.maps.Point(PIN_SIZE / 2, PIN_SIZE),
    });
    return {
      own: icon('own'),
      friend: icon('friend'),
      bucket: icon('bucket'),
      shared: icon('shared'),
    };
  }, []);

  const onLoad = useCallback((instance: google.maps.Map) => {
    instance.setCenter(EMPTY_CENTER);
    instance.setZoom(DEFAULT_ZOOM);
    setMap(instance);
  }, []);

  return (
    <div ref={wrapRef} className="google-map" data-provider="google">
      <GoogleMap
        mapContainerClassName="google-map-canvas"
        options={options}
        onLoad={onLoad}
        onUnmount={() => setMap(null)}
      >
        <MarkerClustererF
          options={{
            gridSize: CLUSTER_GRID_SIZE,
            minimumClusterSize: CLUSTER_MIN_SIZE,
            batchSize: CLUSTER_BATCH_SIZE,
            styles: CLUSTER_STYLES,
            averageCenter: true,
          }}
        >
          {(clusterer) => (
            <>
              {markers.map((marker) => (
                <MarkerF
                  key={`${marker.kind}:${marker.id}`}
                  position={{ lat: marker.lat, lng: marker.lng }}
                  icon={icons[marker.kind]}
                  title={`${markerTitle(marker)} (${PIN_KIND_LABEL[marker.kind]})`}
                  clusterer={clusterer}
                  zIndex={selected?.id === marker.id ? 1000 : undefined}
                  onClick={() => select(marker)}
                />
              ))}
            </>
          )}
        </MarkerClustererF>
        {selected ? (
          <InfoWindowF
            position={{ lat: selected.lat, lng: selected.lng }}
            options={{ headerDisabled: true, pixelOffset: new google.maps.Size(0, -PIN_SIZE) }}
            onCloseClick={close}
          >
            <InfoWindow
              marker={selected}
              user={user}
              layout={layout}
              onClose={close}
              renderJournal={renderJournal}
              renderItinerary={renderItinerary}
            />
          </InfoWindowF>
        ) : null}
      </GoogleMap>
    </div>
  );
}
