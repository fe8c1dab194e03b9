import { describe, expect, it } from 'vitest';
import {
  distinctDays,
  haversineKm,
  sharedCountries,
  type StatsTrip,
  TravelStats,
  travelStats,
} from '../src/index';

const at = (
  id: string,
  latitude: number,
  longitude: number,
  startDate: string,
  endDate = startDate,
) => ({
  id,
  name: id,
  latitude,
  longitude,
  startDate,
  endDate,
});

const basel = at('Basel', 47.5596, 7.5886, '2024-06-01', '2024-06-03');
const geneva = at('Geneva', 46.2044, 6.1432, '2024-06-04', '2024-06-06');
const strasbourg = at('Strasbourg', 48.5734, 7.7521, '2024-06-07', '2024-06-10');
const kehl = at('Kehl', 48.5725, 7.815, '2024-06-08');
const midAtlantic = at('Mid-Atlantic', 30, -40, '2024-06-11');
const paris = at('Paris', 48.8566, 2.3522, '2024-06-12');
const genevaAgain = at('Geneva again', 46.2044, 6.1432, '2023-01-05');
const tokyo = at('Tokyo', 35.6762, 139.6503, '2025-03-01', '2025-03-03');

const TRIPS: StatsTrip[] = [
  {
    id: 'alps',
    startDate: '2024-06-01',
    endDate: '2024-06-10',
    destinations: [basel, geneva, strasbourg],
  },
  // overlaps the first (June 8-10) and has a destination at open sea
  {
    id: 'rhine',
    startDate: '2024-06-08',
    endDate: '2024-06-12',
    destinations: [kehl, midAtlantic, paris],
  },
  // a second trip to a country, earlier than the first one listed
  { id: 'winter', startDate: '2023-01-05', endDate: '2023-01-05', destinations: [genevaAgain] },
  {
    id: 'japan',
    startDate: '2025-03-01T00:00:00.000Z',
    endDate: '2025-03-03T00:00:00.000Z',
    destinations: [tokyo],
  },
];

const legs = (...points: Array<{ latitude: number; longitude: number }>) =>
  points
    .slice(1)
    .reduce(
      (km, b, i) =>
        km + haversineKm(points[i]!.latitude, points[i]!.longitude, b.latitude, b.longitude),
      0,
    );

describe('travelStats', () => {
  const stats = travelStats(TRIPS);

  it('lists each country once, by first visit, with its destinations', () => {
    expect(stats.countries).toEqual([
      { code: 'CH', name: 'Switzerland', firstVisited: '2023-01-05', destinations: 3 },
      { code: 'FR', name: 'France', firstVisited: '2024-06-07', destinations: 2 },
      { code: 'DE', name: 'Germany', firstVisited: '2024-06-08', destinations: 1 },
      { code: 'JP', name: 'Japan', firstVisited: '2025-03-01', destinations: 1 },
    ]);
    expect(stats.countryCount).toBe(4);
  });

  it('counts continents, trips, destinations (the one at sea too) and the world share', () => {
    expect(stats.continents).toEqual([
      { name: 'Europe', countryCount: 3 },
      { name: 'Asia', countryCount: 1 },
    ]);
    expect(stats.tripCount).toBe(4);
    expect(stats.destinationCount).toBe(8);
    expect(stats.worldShare).toBe(Math.round((4 / 195) * 1e4) / 1e4);
  });

  it('counts overlapping days once', () => {
    // June 1-12 (the two overlapping trips: 12 days), January 5 (1), March 1-3 (3)
    expect(stats.daysTravelled).toBe(16);
  });

  it('sums the great-circle distance along each trip, not between trips', () => {
    const expected = legs(basel, geneva, strasbourg) + legs(kehl, midAtlantic, paris);
    expect(stats.distanceKm).toBeCloseTo(expected, 1);
    // Kehl to the mid-Atlantic is about 4,400 km, and on to Paris about as much
    expect(stats.distanceKm).toBeGreaterThan(8_500);
    expect(stats.distanceKm).toBeLessThan(9_500);
  });

  it('answers what the schema describes', () => {
    expect(TravelStats.parse(stats)).toEqual(stats);
  });

  it('gives zeros for no trips', () => {
    expect(travelStats([])).toEqual({
      countryCount: 0,
      countries: [],
      continents: [],
      worldShare: 0,
      tripCount: 0,
      destinationCount: 0,
      daysTravelled: 0,
      distanceKm: 0,
    });
  });

  it('counts a territory among the countries but not in the world share', () => {
    const gibraltar = at('Gibraltar', 36.1408, -5.3536, '2024-01-01');
    const s = travelStats([
      { id: 'g', startDate: '2024-01-01', endDate: '2024-01-01', destinations: [gibraltar] },
    ]);
    expect(s.countries.map((c) => c.code)).toEqual(['GI']);
    expect(s.countryCount).toBe(1);
    expect(s.worldShare).toBe(0);
  });
});

describe('distinctDays', () => {
  it('joins touching and overlapping ranges and skips what is not a date', () => {
    expect(
      distinctDays([
        { startDate: '2024-02-27', endDate: '2024-03-01' }, // leap year: 27, 28, 29, 1 = 4
        { startDate: '2024-03-02', endDate: '2024-03-02' }, // touching: +1
        { startDate: '2024-02-28', endDate: '2024-03-01' }, // inside: +0
        { startDate: '2024-03-10', endDate: '2024-03-08' }, // backwards: read forwards, +3
        { startDate: 'soon', endDate: '2024-04-01' }, // not a date: skipped
        { startDate: '2024-02-30', endDate: '2024-03-01' }, // no such day: skipped
      ]),
    ).toBe(8);
  });
});

describe('haversineKm', () => {
  it('measures known distances', () => {
    expect(haversineKm(0, 0, 0, 1)).toBeCloseTo(111.195, 3);
    expect(haversineKm(0, 0, 90, 0)).toBeCloseTo(10_007.557, 2);
    // across the antimeridian: Suva to Apia, about 1,150 km, not 39,000
    expect(haversineKm(-18.1248, 178.4501, -13.8333, -171.7667)).toBeCloseTo(1150, -2);
  });
});

describe('sharedCountries', () => {
  it('names the countries both visited, by name', () => {
    const mine = travelStats(TRIPS);
    const theirs = travelStats([
      {
        id: 't',
        startDate: '2024-01-01',
        endDate: '2024-01-02',
        destinations: [
          at('Tokyo', 35.6762, 139.6503, '2024-01-01'),
          at('Paris', 48.8566, 2.3522, '2024-01-02'),
          at('Rome', 41.9028, 12.4964, '2024-01-02'),
        ],
      },
    ]);
    expect(sharedCountries(mine, theirs)).toEqual([
      { code: 'FR', name: 'France' },
      { code: 'JP', name: 'Japan' },
    ]);
    expect(sharedCountries(theirs, mine)).toEqual(sharedCountries(mine, theirs));
    expect(sharedCountries(mine, travelStats([]))).toEqual([]);
  });
});
