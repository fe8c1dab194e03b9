import type { FeedItem } from '@wayfarer/contracts';
import { describe, expect, it } from 'vitest';
import {
  destinationNames,
  feedMarkers,
  feedReducer,
  initialFeedState,
  type FeedAction,
  type FeedState,
} from './feedState';

const item = (
  tripId: string,
  places: [string, number, number][] = [['Lisbon', 38.7, -9.1]],
): FeedItem => ({
  friend: { id: 'bea', name: 'Bea', picture: '/p/bea.png' },
  trip: { _id: tripId, name: `Trip ${tripId}`, startDate: '2026-05-01', endDate: '2026-05-09' },
  destinations: places.map(([name, latitude, longitude], i) => ({
    _id: `${tripId}-d${i}`,
    name,
    latitude,
    longitude,
    startDate: '2026-05-01',
    endDate: '2026-05-03',
  })),
  firstPhoto: null,
  createdAt: '2026-11-26T10:00:00.000Z',
});

const run = (actions: FeedAction[], from: FeedState = initialFeedState) =>
  actions.reduce(feedReducer, from);

describe('the feed', () => {
  it('loads the first page, then more by the cursor, each trip once', () => {
    const first = run([
      { type: 'loaded', page: { items: [item('t3'), item('t2')], nextCursor: 'k' } },
    ]);
    expect(first.load).toBe('ready');
    const more = run(
      [
        { type: 'more-start' },
        { type: 'more-loaded', page: { items: [item('t2'), item('t1')], nextCursor: null } },
      ],
      first,
    );
    expect(more.items.map((i) => i.trip._id)).toEqual(['t3', 't2', 't1']);
    expect(more.nextCursor).toBeNull();
    expect(run([{ type: 'more-start' }], more)).toBe(more);
  });

  it('says a failed first load; a failed page keeps the list and says so', () => {
    expect(run([{ type: 'load-failed' }]).load).toBe('failed');
    const first = run([{ type: 'loaded', page: { items: [item('t1')], nextCursor: 'k' } }]);
    const failed = run([{ type: 'more-start' }, { type: 'more-failed' }], first);
    expect(failed).toMatchObject({ loadingMore: false, moreError: true, load: 'ready' });
    expect(failed.items).toHaveLength(1);
    // a retry that works clears the message
    const again = run(
      [
        { type: 'more-start' },
        { type: 'more-loaded', page: { items: [item('t0')], nextCursor: null } },
      ],
      failed,
    );
    expect(again.moreError).toBe(false);
  });

  it('puts every trip’s destinations on the map, or the chosen trip’s alone', () => {
    const items = [
      item('t2', [
        ['Lisbon', 38.7, -9.1],
        ['Nowhere', 200, 0],
      ]),
      item('t1', [['Oslo', 59.9, 10.7]]),
    ];
    expect(feedMarkers(items, null).map((m) => m.name)).toEqual(['Lisbon', 'Oslo']);
    expect(feedMarkers(items, 't1').map((m) => m.name)).toEqual(['Oslo']);
    // a chosen trip not loaded (yet): every trip's
    expect(feedMarkers(items, 'gone')).toHaveLength(2);
    expect(feedMarkers(items, 't1')[0]).toEqual({
      kind: 'friend',
      id: 't1-d0',
      name: 'Oslo',
      lat: 59.9,
      lng: 10.7,
      startDate: '2026-05-01',
      endDate: '2026-05-03',
      photos: [],
      friendId: 'bea',
      friendName: 'Bea',
      friendPicture: '/p/bea.png',
    });
  });

  it('names the destinations in order', () => {
    expect(
      destinationNames(
        item('t', [
          ['A', 1, 1],
          ['B', 2, 2],
        ]),
      ),
    ).toBe('A · B');
    expect(destinationNames(item('t', []))).toBe('No destinations');
  });
});
