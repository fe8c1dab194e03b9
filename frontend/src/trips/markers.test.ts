import { describe, expect, it } from 'vitest';
import { formatDateRange, formatShortDate } from '../map/format';
import { hasPendingPhotos, type Trip } from './api';
import { DRAFT_MARKER_PREFIX, isDraftMarkerId, summaryMarkers, tripMarkers } from './markers';

const trip = (id: string, destinations: Partial<Trip['destinations'][number]>[]): Trip => ({
  _id: id,
  name: `Trip ${id}`,
  startDate: '2025-06-01',
  endDate: '2025-06-14',
  destinations: destinations.map((d, i) => ({
    _id: `${id}-d${i}`,
    name: `Place ${i}`,
    latitude: 10 + i,
    longitude: 20 + i,
    startDate: '2025-06-01',
    endDate: '2025-06-02',
    photos: [],
    story: '',
    ...d,
  })),
});

describe('trip markers', () => {
  it("every destination of the user's trips is an own marker {id, name, lat, lng, dates, photos}", () => {
    const markers = tripMarkers([
      trip('t1', [
        { name: 'Paris, France', latitude: 48.85, longitude: 2.35, photos: ['/api/photos/t1/p'] },
      ]),
      trip('t2', [{}, {}]),
    ]);
    expect(markers).toHaveLength(3);
    expect(markers[0]).toEqual({
      kind: 'own',
      id: 't1-d0',
      name: 'Paris, France',
      lat: 48.85,
      lng: 2.35,
      startDate: '2025-06-01',
      endDate: '2025-06-02',
      photos: ['/api/photos/t1/p'],
    });
    expect(markers.map((m) => m.id)).toEqual(['t1-d0', 't2-d0', 't2-d1']);
  });

  it('pins of trip summaries name their trip (the info window loads its other photos); a full trip does not', () => {
    const summary = trip('t1', [{ photos: ['/api/photos/t1/p1'] }]);
    expect(summaryMarkers([summary])).toEqual([
      expect.objectContaining({ id: 't1-d0', tripId: 't1', photos: ['/api/photos/t1/p1'] }),
    ]);
    expect(tripMarkers([summary])[0]).not.toHaveProperty('tripId');
  });

  it('a trip has pending photos while one of its URLs carries the pending query', () => {
    expect(hasPendingPhotos(trip('t1', [{ photos: ['/api/photos/t1/p1?pending=1'] }]))).toBe(true);
    expect(hasPendingPhotos(trip('t1', [{ photos: ['/api/photos/t1/p1'] }, {}]))).toBe(false);
  });

  it('skips a destination without a usable position', () => {
    expect(
      tripMarkers([trip('t', [{ latitude: Number.NaN }, { longitude: 200 }, {}])]),
    ).toHaveLength(1);
  });

  it('tells draft (unsaved) markers apart', () => {
    expect(isDraftMarkerId(`${DRAFT_MARKER_PREFIX}abc`)).toBe(true);
    expect(isDraftMarkerId('665f1c2b9a1e4c0012345678')).toBe(false);
  });
});

describe('trip dates in short form (year, month, day)', () => {
  it('a trip range shows both days, one day once, and never shifts a day', () => {
    const range = formatDateRange('2025-06-01', '2025-06-14');
    expect(range).toBe(`${formatShortDate('2025-06-01')} – ${formatShortDate('2025-06-14')}`);
    expect(range).toMatch(/2025/);
    expect(formatShortDate('2025-06-01')).toMatch(/\b1\b/);
    expect(formatDateRange('2025-06-01', '2025-06-01')).toBe(formatShortDate('2025-06-01'));
    // a full timestamp from the server keeps its UTC calendar day
    expect(formatShortDate('2025-06-01T00:00:00.000Z')).toBe(formatShortDate('2025-06-01'));
  });
});
