import Supercluster from 'supercluster';
import { CLUSTER_GRID_SIZE, CLUSTER_MIN_SIZE } from './constants';
import type { MapMarker } from './types';

/**
 * Clustering for the keyless map with the spec's clusterer defaults: a 60 px grid and clusters
 * of at least 2 pins. Supercluster measures its radius in pixels of a 512 px tile, which is
 * MapLibre's tile size, so radius 60 is 60 screen pixels at MapLibre's integer zoom levels.
 */
export const CLUSTER_OPTIONS = {
  radius: CLUSTER_GRID_SIZE,
  minPoints: CLUSTER_MIN_SIZE,
  extent: 512,
  maxZoom: 16,
} as const;

interface PointProps {
  markerId: string;
}

export type ClusterItem =
  | { type: 'marker'; marker: MapMarker }
  | {
      type: 'cluster';
      id: number;
      lat: number;
      lng: number;
      count: number;
      /** The MapLibre zoom at which the cluster falls apart. */
      expansionZoom: number;
      markerIds: string[];
    };

export interface ClusterIndex {
  itemsAt(mapLibreZoom: number): ClusterItem[];
}

export function buildClusterIndex(markers: readonly MapMarker[]): ClusterIndex {
  const byId = new Map(markers.map((m) => [m.id, m]));
  const index = new Supercluster<PointProps>({ ...CLUSTER_OPTIONS });
  index.load(
    markers.map((m) => ({
      type: 'Feature' as const,
      properties: { markerId: m.id },
      geometry: { type: 'Point' as const, coordinates: [m.lng, m.lat] },
    })),
  );
  return {
    itemsAt(mapLibreZoom) {
      const zoom = Math.max(0, Math.floor(mapLibreZoom));
      const items: ClusterItem[] = [];
      for (const feature of index.getClusters([-180, -90, 180, 90], zoom)) {
        const [lng, lat] = feature.geometry.coordinates as [number, number];
        const props = feature.properties as Partial<Supercluster.ClusterProperties> & PointProps;
        if (props.cluster && typeof props.cluster_id === 'number') {
          const id = props.cluster_id;
          const leaves = index.getLeaves(id, Infinity).map((leaf) => leaf.properties.markerId);
          items.push({
            type: 'cluster',
            id,
            lat,
            lng,
            count: props.point_count ?? leaves.length,
            expansionZoom: index.getClusterExpansionZoom(id),
            markerIds: leaves,
          });
        } else {
          const marker = byId.get(props.markerId);
          if (marker) items.push({ type: 'marker', marker });
        }
      }
      return items;
    },
  };
}
