import type { Position } from 'geojson';
import { describe, expect, it } from 'vitest';
import {
  basemapFromTopology,
  fixPolygonRings,
  fixRing,
  maxLongitudeStep,
  unwrapPath,
} from './basemap';

const atlas = {
  '110m': () => import('world-atlas/countries-110m.json?raw'),
  '50m': () => import('world-atlas/countries-50m.json?raw'),
};

describe('keyless basemap from world-atlas', () => {
  it('unwraps a path that jumps across the antimeridian', () => {
    const path: Position[] = [
      [178, -16],
      [179.9, -16.5],
      [-179.8, -16.7],
      [-179.5, -16.2],
    ];
    const out = unwrapPath(path);
    expect(out.map((p) => p[0])).toEqual([178, 179.9, 180.2, 180.5]);
    expect(maxLongitudeStep(out)).toBeLessThan(2);
  });

  it('cuts a ring around the South Pole at the antimeridian and closes it along the pole', () => {
    // A crude Antarctica: around the pole eastwards at -70, starting at -60.
    const ring: Position[] = [-60, 0, 90, 170, -170, -120, -60].map((lng) => [lng, -70]);
    const fixed = fixRing(ring);
    expect(fixed).toEqual([
      [-180, -70],
      [-170, -70],
      [-120, -70],
      [-60, -70],
      [0, -70],
      [90, -70],
      [170, -70],
      [180, -70],
      [180, -90],
      [-180, -90],
      [-180, -70],
    ]);
    // within [-180, 180]; the only world-wide step runs along the pole
    expect(fixed.every(([x]) => Math.abs(x!) <= 180)).toBe(true);
    expect(maxLongitudeStep(fixed.slice(0, -2))).toBeLessThan(180);
  });

  it('makes the polar coast the outer ring and drops a ring hugging the pole', () => {
    // world-atlas's Antarctica: [ring at -89.999 around the pole, coast around the pole]
    const cap: Position[] = [-180, -60, 60, 179, -180].map((lng) => [lng, -89.999]);
    const coast: Position[] = [-60, 0, 90, 170, -170, -120, -60].map((lng) => [lng, -70]);
    const island: Position[] = [
      [10, -60],
      [11, -60],
      [11, -61],
      [10, -60],
    ];
    const rings = fixPolygonRings([cap, coast]);
    expect(rings).toHaveLength(1);
    expect(rings[0]![0]).toEqual([-180, -70]);
    expect(fixPolygonRings([cap])).toEqual([]);
    expect(fixPolygonRings([island])).toEqual([island]);
  });

  it('leaves an ordinary ring as it is', () => {
    const square: Position[] = [
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 10],
      [0, 0],
    ];
    expect(fixRing(square)).toEqual(square);
  });

  for (const scale of ['110m', '50m'] as const) {
    it(`has no ring or line in countries-${scale} that would draw a stray line`, async () => {
      const topology = JSON.parse((await atlas[scale]()).default);
      const { land, borders, coast } = basemapFromTopology(topology);
      expect(land.features.length).toBeGreaterThan(170);
      let worst = 0;
      let rings = 0;
      for (const f of land.features) {
        const polygons =
          f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates;
        for (const polygon of polygons) {
          for (const ring of polygon) {
            rings++;
            worst = Math.max(worst, maxLongitudeStep(ring));
            // closed
            expect(ring[0]).toEqual(ring[ring.length - 1]);
          }
        }
      }
      for (const f of [...borders.features, ...coast.features]) {
        for (const line of f.geometry.coordinates) worst = Math.max(worst, maxLongitudeStep(line));
      }
      expect(rings).toBeGreaterThan(200);
      // Only the pole closure of Antarctica steps a whole world width, along latitude -90.
      expect(worst).toBeLessThanOrEqual(360);
      const bigSteps = land.features.flatMap((f) =>
        (f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates)
          .flat()
          .flatMap((ring) =>
            ring.slice(1).flatMap((p, i) => {
              const q = ring[i]!;
              return Math.abs(p[0]! - q[0]!) > 180 ? [[q, p]] : [];
            }),
          ),
      );
      // Antarctica is filled: one polygon's outer ring closes along the South Pole.
      const antarctica = land.features.find((f) => String(f.id) === '010')!;
      const outers =
        antarctica.geometry.type === 'Polygon'
          ? [antarctica.geometry.coordinates[0]!]
          : antarctica.geometry.coordinates.map((p) => p[0]!);
      expect(
        outers.some((ring) => ring.some((p) => p[1] === -90) && ring.some((p) => p[1]! > -80)),
      ).toBe(true);
      for (const [a, b] of bigSteps) {
        expect(a![1]).toBe(-90);
        expect(b![1]).toBe(-90);
      }
    });
  }
});
