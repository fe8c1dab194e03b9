import { beforeAll, describe, expect, it } from 'vitest';
import { type Atlas, COAST_KM, countryAt, defaultAtlas } from '../src/index';
import { AMBIGUOUS, type Place, PLACES } from './places';

let atlas: Atlas;
beforeAll(() => {
  atlas = defaultAtlas();
}, 60_000);

const answer = (p: Place) => atlas.countryAt(p.latitude, p.longitude)?.code ?? null;

/** A seeded generator (mulberry32): the same random points on every run. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

describe('countryAt on real places', () => {
  it('answers every fixed place right (capitals, border towns, islands, near coasts, open sea)', () => {
    expect(PLACES.length).toBeGreaterThanOrEqual(60);
    const rows = [...PLACES, ...AMBIGUOUS].map((p) => ({ ...p, got: answer(p) }));
    const right = rows.filter((r) => r.got === r.expected).length;
    const byKind = new Map<string, [number, number]>();
    for (const r of rows) {
      const [ok, all] = byKind.get(r.kind) ?? [0, 0];
      byKind.set(r.kind, [ok + (r.got === r.expected ? 1 : 0), all + 1]);
    }
    console.log(
      `hit rate: ${right}/${rows.length} = ${((100 * right) / rows.length).toFixed(1)} % ` +
        `(${PLACES.length} required, ${AMBIGUOUS.length} ambiguous at the data's resolution); ` +
        [...byKind].map(([kind, [ok, all]]) => `${kind} ${ok}/${all}`).join(', '),
    );
    for (const p of AMBIGUOUS) {
      console.log(`ambiguous: ${p.name} is ${p.expected}, the atlas says ${answer(p)}: ${p.why}`);
    }
    const wrong = PLACES.map((p) => ({
      name: p.name,
      expected: p.expected,
      got: answer(p),
    })).filter((r) => r.got !== r.expected);
    expect(wrong).toEqual([]);
  });

  it('names the country and its continent', () => {
    expect(countryAt(48.8566, 2.3522)).toEqual({ code: 'FR', name: 'France', continent: 'Europe' });
    expect(countryAt(-20.8823, 55.4504)).toEqual({
      code: 'RE',
      name: 'Réunion',
      continent: 'Africa',
    });
    expect(countryAt(42.6629, 21.1655)).toMatchObject({ code: 'XK', name: 'Kosovo' });
    expect(countryAt(30, -40)).toBeNull();
  });
});

describe('the coast rule', () => {
  // Portugal's west coast near Peniche runs north-south at about 9.38° W (39.4° N)
  const offPortugal = (km: number) => atlas.data.locate(39.4, -9.38 - km / 86);

  it(`gives a point at sea the nearest country within ${COAST_KM} km`, () => {
    const near = offPortugal(15);
    expect(near?.code).toBe('PT');
    expect(near!.distanceKm).toBeGreaterThan(5);
    expect(near!.distanceKm).toBeLessThanOrEqual(COAST_KM);
  });

  it(`gives none beyond ${COAST_KM} km (open sea)`, () => {
    expect(offPortugal(45)).toBeNull();
  });

  it('takes the nearer of two coasts', () => {
    // the Strait of Gibraltar: just off Tarifa (ES) and just off Cape Malabata (MA)
    expect(atlas.data.locate(35.99, -5.6)?.code).toBe('ES');
    expect(atlas.data.locate(35.86, -5.6)?.code).toBe('MA');
  });
});

describe('the edges of the map', () => {
  it('gives the same answer at longitude 180 and -180, and wraps any longitude', () => {
    for (const latitude of [-16.8, 65.5, -85, 0]) {
      expect(atlas.countryAt(latitude, 180)).toBe(atlas.countryAt(latitude, -180));
    }
    expect(atlas.countryAt(48.8566, 2.3522 + 360)?.code).toBe('FR');
    expect(atlas.countryAt(21.3069, -157.8583 - 720)?.code).toBe('US');
  });

  it('refuses what is not a point', () => {
    expect(() => atlas.countryAt(91, 0)).toThrow(RangeError);
    expect(() => atlas.countryAt(Number.NaN, 0)).toThrow(RangeError);
    expect(() => atlas.countryAt(0, Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe('the index', () => {
  it('answers as a scan of every polygon and border does (fixed places, random points, points near the places)', () => {
    const random = seeded(22);
    const points: Array<[number, number]> = PLACES.map((p) => [p.latitude, p.longitude]);
    for (let i = 0; i < 30; i++) points.push([random() * 180 - 90, random() * 360 - 180]);
    // and 40 within 0.3° of a fixed place: borders and coasts, where the two could differ
    for (let i = 0; i < 40; i++) {
      const p = PLACES[Math.floor(random() * PLACES.length)]!;
      points.push([
        Math.max(-90, Math.min(90, p.latitude + (random() - 0.5) * 0.6)),
        p.longitude + (random() - 0.5) * 0.6,
      ]);
    }
    const differ = points.filter(([lat, lon]) => {
      const a = atlas.data.locate(lat, lon);
      const b = atlas.data.locateByScan(lat, lon);
      return a?.code !== b?.code || Math.abs((a?.distanceKm ?? 0) - (b?.distanceKm ?? 0)) > 1e-9;
    });
    expect(differ).toEqual([]);
  }, 60_000);
});
