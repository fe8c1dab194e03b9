import type { GeometryCollection, Topology } from 'topojson-specification';
import { describe, expect, it } from 'vitest';
import { equalEarth, ringPath, shapesFromTopology, WORLD_VIEWBOX } from './worldShapes';

describe('atlas world shapes', () => {
  it('projects with Equal Earth: the centre at 0, symmetric, the poles flat', () => {
    const [x0, y0] = equalEarth(0, 0);
    expect(Math.abs(x0) + Math.abs(y0)).toBe(0);
    const [xe, ye] = equalEarth(180, 45);
    const [xw, yw] = equalEarth(-180, -45);
    expect(xe).toBeCloseTo(-xw, 6);
    expect(ye).toBeCloseTo(-yw, 6);
    expect(ye).toBeLessThan(0); // north is up
    expect(equalEarth(180, 0)[0]).toBeCloseTo(270.7, 1);
    // beyond the antimeridian (an unwrapped ring) stays on the edge
    expect(equalEarth(190, 0)[0]).toBe(equalEarth(180, 0)[0]);
    expect(WORLD_VIEWBOX.split(' ').map(Number)[2]).toBeCloseTo(541.3, 1);
  });

  it('writes a ring as path data without repeated points', () => {
    expect(
      ringPath([
        [0, 0],
        [0.001, 0],
        [10, 0],
        [10, 10],
        [0, 0],
      ]),
    ).toBe('M0.0 0.0L15.0 0.0L14.9 -20.2L0.0 0.0Z'); // 10° at the equator: 0.1745 / (M A1)
    expect(ringPath([])).toBe('');
  });

  it("codes world-atlas 1:50m's countries as the server does, one path per code", async () => {
    const raw = (await import('world-atlas/countries-50m.json?raw')).default;
    const topology = JSON.parse(raw) as Topology<{
      countries: GeometryCollection<{ name: string }>;
    }>;
    const shapes = shapesFromTopology(topology);
    const codes = shapes.map((s) => s.code);
    expect(new Set(codes).size).toBe(codes.length);
    // ISO territories inside a Natural Earth country, and features without an id
    for (const code of ['FR', 'GF', 'RE', 'NL', 'BQ', 'NO', 'SJ', 'UA', 'RU', 'XK', 'CY', 'SO']) {
      expect(codes).toContain(code);
    }
    expect(codes.every((c) => /^[A-Z]{2}$/.test(c))).toBe(true);
    expect(shapes.length).toBeGreaterThan(230);
    expect(shapes.every((s) => /^M[-\d.]/.test(s.d) && s.d.endsWith('Z'))).toBe(true);
  });
});
