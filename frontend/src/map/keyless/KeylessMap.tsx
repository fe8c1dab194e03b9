import { useCallback, useEffect, useRef } from 'react';
import { carouselLayout } from '../carousel';
import { toMapLibreZoom } from '../constants';
import { InfoWindow } from '../InfoWindow';
import type { MapProviderProps } from '../providerApi';
import { focusView } from '../selection';
import { useElementSize } from '../useElementSize';
import { useMarkerSelection, type SelectionCamera } from '../useMarkerSelection';
import { useWindowWidth } from '../useWindowWidth';
import { fitView, markersKey } from '../viewport';
import { reducedMotion } from './elements';
import { useKeylessHandle } from './useKeylessHandle';
import { useMapLibre } from './useMapLibre';
import { useMarkerLayer, type PinActions } from './useMarkerLayer';
import { usePlaceLabels } from './usePlaceLabels';
import '../../styles/map.css';

/** The keyless provider: MapLibre GL on a bundled dark world basemap, no network at all. */
export default function KeylessMap({
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
  const containerRef = useRef<HTMLDivElement>(null);
  const size = useElementSize(wrapRef);
  const windowWidth = useWindowWidth();
  const layout = carouselLayout(windowWidth, size);
  const layoutRef = useRef({ layout, size });
  layoutRef.current = { layout, size };

  const camera = useRef<SelectionCamera | null>(null);
  const { selected, interactive, select, close, peek } = useMarkerSelection(
    camera,
    markers,
    onSelectionChange,
  );
  const { mapRef, ready, failure, clusterZoom, setClusterZoom } = useMapLibre(
    containerRef,
    wrapRef,
    camera,
    layoutRef,
    size,
    interactive,
  );

  // ---- fit to the markers (only when the set of positions changes) ----
  const key = markersKey(markers);
  const fittedKey = useRef<string | null>(null);
  const hasSize = size.width > 0 && size.height > 0;
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !ready || !hasSize || fittedKey.current === key) return;
    fittedKey.current = key;
    if (peek().state[0]) return; // an open info window keeps its view
    const { size: s } = layoutRef.current;
    const view = fitView(markers, s);
    map.jumpTo({
      center: [view.center.lng, view.center.lat],
      zoom: toMapLibreZoom(view.zoom),
      padding: { top: 0, right: 0, bottom: 0, left: 0 },
    });
    setClusterZoom(Math.floor(map.getZoom()));
  }, [key, ready, hasSize, peek]);

  // ---- focus from a list ----
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !ready || !focusedId || peek().state[0]) return;
    const marker = markers.find((m) => m.id === focusedId);
    if (!marker) return;
    const view = focusView(marker);
    map.flyTo({
      center: [view.center.lng, view.center.lat],
      zoom: toMapLibreZoom(view.zoom),
      duration: reducedMotion() ? 0 : 900,
    });
  }, [focusedId, focusNonce, ready]);

  usePlaceLabels(mapRef, ready);

  const actions = useRef<PinActions>({ select, peek, markers });
  actions.current = { select, peek, markers };
  useMarkerLayer(mapRef, ready, markers, clusterZoom, actions, selected?.id ?? null);

  const handleClose = useCallback(() => close(), [close]);
  useKeylessHandle(mapRef, ready, actions, onReady, handleClose);

  const sheet = layout.mode === 'mobile';
  return (
    <div ref={wrapRef} className="keyless-map" data-provider="keyless" data-ready={ready}>
      <div ref={containerRef} className="keyless-canvas" />
      {selected ? (
        <div className={`map-info-layer map-info-layer--${sheet ? 'sheet' : 'docked'}`}>
          <InfoWindow
            marker={selected}
            user={user}
            layout={layout}
            onClose={handleClose}
            renderJournal={renderJournal}
            renderItinerary={renderItinerary}
          />
        </div>
      ) : null}
      {failure ? (
        <p className="map-status map-status--error" role="alert">
          {failure}
        </p>
      ) : null}
    </div>
  );
}
