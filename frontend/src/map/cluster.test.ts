import { describe, expect, it } from 'vitest';
import { CLUSTER_OPTIONS, buildClusterIndex } from './cluster';
import { CLUSTER_BATCH_SIZE, CLUSTER_GRID_SIZE, CLUSTER_MIN_SIZE } from './constants';
import type { MapMarker } from './types';

const own = (id: string, lat: number, lng: number): MapMarker => ({
  kind: 'own',
  id,
  name: id,
  lat,
  lng,
  photos: [],
});

describe('clustering', () => {
  it('uses the clusterer defaults: grid 60, minimum cluster size 2, batch 2000', () => {
    expect(CLUSTER_GRID_SIZE).toBe(60);
    expect(CLUSTER_MIN_SIZE).toBe(2);
    expect(CLUSTER_BATCH_SIZE).toBe(2000);
    expect(CLUSTER_OPTIONS).toMatchObject({ radius: 60, minPoints: 2, extent: 512 });
  });

  it('groups two close pins at a world zoom and splits them when zoomed in', () => {
    // Lisbon and Porto: about 275 km apart.
    const index = buildClusterIndex([own('lisbon', 38.72, -9.14), own('porto', 41.15, -8.61)]);
    const world = index.itemsAt(1);
    expect(world).toHaveLength(1);
    const cluster = world[0]!;
    expect(cluster.type).toBe('cluster');
    if (cluster.type !== 'cluster') return;
    expect(cluster.count).toBe(2);
    expect(cluster.markerIds.sort()).toEqual(['lisbon', 'porto']);
    expect(cluster.expansionZoom).toBeGreaterThan(1);

    const close = index.itemsAt(cluster.expansionZoom);
    expect(close.map((i) => i.type)).toEqual(['marker', 'marker']);
  });

  it('never makes a cluster of one and keeps far pins apart', () => {
    const index = buildClusterIndex([own('paris', 48.85, 2.35), own('tokyo', 35.68, 139.69)]);
    const items = index.itemsAt(1);
    expect(items.map((i) => i.type)).toEqual(['marker', 'marker']);
  });

  it('treats fractional zooms as the level below and an empty set as no items', () => {
    const index = buildClusterIndex([own('a', 0, 0), own('b', 0, 1)]);
    expect(index.itemsAt(2.9)).toEqual(index.itemsAt(2));
    expect(buildClusterIndex([]).itemsAt(3)).toEqual([]);
  });
});
