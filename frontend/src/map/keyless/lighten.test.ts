import { feature } from 'topojson-client';
import { describe, expect, it } from 'vitest';
import { basemapFromTopology, maxLongitudeStep } from './basemap';
import { lightenTopology, type Topology } from './lighten';

const load = async () =>
  JSON.parse((await import('world-atlas/countries-50m.json?raw')).default) as Topology;

describe('lightenTopology (the basemap the build ships)', () => {
  it('is much lighter, yet every country keeps its place within two pixels at the highest zoom', async () => {
    const original = await load();
    const light = lightenTopology(original);
    expect(JSON.stringify(light).length).toBeLessThan(JSON.stringify(original).length * 0.75);

    // the same countries, each with nearly the same bounding box (0.03° ~ 2 px at zoom 6.5)
    const boxes = (t: Topology) =>
      (
        feature(t as never, t.objects.countries as never) as unknown as {
          features: Array<{ id: string; geometry: { coordinates: unknown } | null }>;
        }
      ).features.map((f) => {
        const points = JSON.stringify(f.geometry?.coordinates ?? [])
          .match(/-?\d+(?:\.\d+)?(?:e-?\d+)?,-?\d+(?:\.\d+)?(?:e-?\d+)?/g)!
          .map((pair) => pair.split(',').map(Number) as [number, number]);
        const xs = points.map((p) => p[0]);
        const ys = points.map((p) => p[1]);
        return {
          id: f.id,
          box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)],
        };
      });
    const before = boxes(original);
    const after = boxes(light);
    expect(after.map((b) => b.id)).toEqual(before.map((b) => b.id));
    before.forEach((b, i) => {
      b.box.forEach((v, k) =>
        expect(Math.abs(after[i]!.box[k]! - v), `${b.id}`).toBeLessThan(0.03),
      );
    });
  });

  it('reaches no further east or west than the original and draws no stray line', async () => {
    const original = await load();
    const widest = (t: Topology) =>
      Math.max(
        ...basemapFromTopology(t as never).land.features.flatMap((f) =>
          (f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates)
            .flat(2)
            .map(([lng]) => Math.abs(lng!)),
        ),
      );
    expect(widest(lightenTopology(original))).toBeLessThanOrEqual(widest(original) + 0.03);
    const { land, borders, coast } = basemapFromTopology(lightenTopology(original) as never);
    expect(land.features.length).toBeGreaterThan(170);
    let worst = 0;
    for (const f of land.features) {
      const polygons =
        f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates;
      for (const ring of polygons.flat()) {
        expect(ring[0]).toEqual(ring[ring.length - 1]);
        worst = Math.max(worst, maxLongitudeStep(ring));
      }
    }
    for (const f of [...borders.features, ...coast.features]) {
      for (const line of f.geometry.coordinates) worst = Math.max(worst, maxLongitudeStep(line));
    }
    // only the pole closure of Antarctica steps a whole world width, as with the original
    expect(worst).toBeLessThanOrEqual(360);
  });
});
