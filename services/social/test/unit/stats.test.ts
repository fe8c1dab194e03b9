import { describe, expect, it } from 'vitest';
import {
  CONTINENTS,
  ContinentCount,
  CountryRef,
  TravelStats,
  travelStats,
  VisitedCountry,
} from '@wayfarer/atlas';
import {
  FriendStatsResponse,
  StatsContinent,
  StatsContinentCount,
  StatsCountryRef,
  StatsResponse,
  StatsVisitedCountry,
} from '@wayfarer/contracts';
import { z } from 'zod';
import {
  destinationCountries,
  friendStatsOf,
  statsOf,
  type StatsRow,
} from '../../src/domain/stats';

/**
 * contracts' stats schemas are written out (contracts must not import the atlas and its
 * outlines): they must accept exactly what the atlas answers. And social's figures from stored
 * country codes equal the atlas's own from the coordinates.
 */

const destination = (id: string, latitude: number, longitude: number, day: string) => ({
  _id: id,
  name: id,
  latitude,
  longitude,
  startDate: day,
  endDate: day,
  photos: [],
});

const rows: StatsRow[] = [
  {
    summary: {
      _id: 't1',
      name: 'Europe',
      startDate: '2025-03-01',
      endDate: '2025-03-10',
      destinations: [
        destination('rome', 41.9028, 12.4964, '2025-03-01'),
        destination('paris', 48.8566, 2.3522, '2025-03-05'),
        destination('sea', 30, -40, '2025-03-08'),
      ],
    },
    countries: ['IT', 'FR', null],
  },
  {
    summary: {
      _id: 't2',
      name: 'Japan',
      startDate: '2024-10-01',
      endDate: '2024-10-04',
      destinations: [destination('tokyo', 35.6762, 139.6503, '2024-10-01')],
    },
    countries: null,
  },
];

describe('contracts stats schemas', () => {
  it('list the atlas’s continents', () => {
    expect([...StatsContinent.options]).toEqual([...CONTINENTS]);
  });

  it('describe the same shapes as the atlas’s schemas', () => {
    const shape = (schema: z.ZodType) => z.toJSONSchema(schema);
    expect(shape(StatsResponse)).toEqual(shape(TravelStats));
    expect(shape(StatsVisitedCountry)).toEqual(shape(VisitedCountry));
    expect(shape(StatsContinentCount)).toEqual(shape(ContinentCount));
    expect(shape(StatsCountryRef)).toEqual(shape(CountryRef));
  });
});

describe('statsOf', () => {
  it('equals the atlas’s figures from the coordinates, stored codes or not', () => {
    const stats = statsOf(rows);
    const fromAtlas = travelStats(
      rows.map(({ summary }) => ({
        id: summary._id,
        startDate: summary.startDate,
        endDate: summary.endDate,
        destinations: summary.destinations.map((d) => ({ ...d, id: d._id })),
      })),
    );
    expect(stats).toEqual(fromAtlas);
    expect(StatsResponse.strict().parse(stats)).toEqual(stats);
    expect(stats.countries.map((c) => c.code)).toEqual(['JP', 'IT', 'FR']);
    expect(stats).toMatchObject({ tripCount: 2, destinationCount: 4, daysTravelled: 14 });
  });

  it('trusts the stored codes (the lookup runs once, when the event is applied)', () => {
    const stored: StatsRow = { ...rows[0]!, countries: ['ES', 'ES', 'PT'] };
    expect(statsOf([stored]).countries).toMatchObject([
      { code: 'ES', destinations: 2 },
      { code: 'PT', destinations: 1 },
    ]);
  });

  it('adds the countries both visited for a friend', () => {
    const own = statsOf([rows[0]!]);
    const friend = statsOf([{ ...rows[0]!, countries: ['IT', 'DE', null] }]);
    const answer = friendStatsOf(own, friend);
    expect(FriendStatsResponse.strict().parse(answer)).toEqual(answer);
    expect(answer.sharedCountries).toEqual([{ code: 'IT', name: 'Italy' }]);
  });
});

describe('destinationCountries', () => {
  it('finds each destination’s country, null at sea or for a coordinate out of range', () => {
    expect(
      destinationCountries([
        { latitude: 41.9028, longitude: 12.4964 },
        { latitude: 30, longitude: -40 },
        { latitude: 91, longitude: 0 },
        { latitude: Number.NaN, longitude: 0 },
      ]),
    ).toEqual(['IT', null, null, null]);
  });
});
