import { describe, expect, it } from 'vitest';
import { friendDestinationPath, type Friend, type FriendRequest } from './api';
import {
  FRIENDS_TEXTS,
  friendMarkers,
  friendsReducer,
  friendSummary,
  initialFriendsState,
  type FriendsAction,
  type FriendsState,
} from './friendsState';

const friend = (id: string, trips: Friend['trips'] = []): Friend => ({
  id,
  name: `Friend ${id}`,
  picture: `/pic/${id}.png`,
  trips,
});

const request = (id: string): FriendRequest => ({ _id: id, name: `Asker ${id}`, picture: '' });

const dest = (id: string, lat = 10, lng = 20) => ({
  _id: id,
  name: `Place ${id}`,
  latitude: lat,
  longitude: lng,
  startDate: '2025-01-01',
  endDate: '2025-01-02',
  photos: [`/api/photos/t/${id}.jpg`],
});

const trip = (id: string, destinations: ReturnType<typeof dest>[]) => ({
  _id: id,
  name: `Trip ${id}`,
  startDate: '2025-01-01',
  endDate: '2025-01-09',
  destinations,
});

const run = (actions: FriendsAction[], from: FriendsState = initialFriendsState) =>
  actions.reduce(friendsReducer, from);

const ready = (friends: Friend[], requests: FriendRequest[] = []) =>
  run([
    { type: 'friends-loaded', friends, startedAt: 0 },
    { type: 'requests-loaded', requests, startedAt: 0 },
  ]);

describe('friends screen state', () => {
  it('loads friends and requests each on their own; a failure is shown, a failed refresh is not', () => {
    const failed = run([
      { type: 'friends-failed' },
      { type: 'requests-loaded', requests: [request('r')], startedAt: 0 },
    ]);
    expect(failed.friendsLoad).toBe('failed');
    expect(failed.requestsLoad).toBe('ready');
    expect(run([{ type: 'load-start' }], failed).friendsLoad).toBe('loading');

    const shown = ready([friend('a')]);
    const refreshed = run([{ type: 'load-start' }, { type: 'friends-failed' }], shown);
    expect(refreshed.friendsLoad).toBe('ready');
    expect(refreshed.friends.map((f) => f.id)).toEqual(['a']);
  });

  it('Accept removes the request and adds the new friend (the answer, else the request)', () => {
    const s = ready([friend('a')], [request('b'), request('c')]);
    const accepting = run([{ type: 'respond-start', id: 'b', choice: 'accept' }], s);
    expect(accepting.requests[0]!.busy).toBe('accept');
    // a second click while busy changes nothing
    expect(run([{ type: 'respond-start', id: 'b', choice: 'decline' }], accepting)).toBe(accepting);

    const withAnswer = run(
      [{ type: 'accepted', id: 'b', friend: friend('b', [trip('t', [dest('d')])]) }],
      accepting,
    );
    expect(withAnswer.requests.map((e) => e.request._id)).toEqual(['c']);
    expect(withAnswer.friends.map((f) => f.id)).toEqual(['a', 'b']);
    expect(withAnswer.friends[1]!.trips).toHaveLength(1);
    expect(withAnswer.notice).toBe(FRIENDS_TEXTS.accepted('Friend b'));

    const noAnswer = run(
      [
        { type: 'respond-start', id: 'c', choice: 'accept' },
        { type: 'accepted', id: 'c', friend: null },
      ],
      withAnswer,
    );
    expect(noAnswer.friends.find((f) => f.id === 'c')).toEqual({
      id: 'c',
      name: 'Asker c',
      picture: '',
      trips: [],
    });
    // the list is by name
    expect(noAnswer.friends.map((f) => f.id)).toEqual(['c', 'a', 'b']);
  });

  it('Decline removes the request; a refused answer keeps it and shows why', () => {
    const s = ready([], [request('b')]);
    const declined = run(
      [
        { type: 'respond-start', id: 'b', choice: 'decline' },
        { type: 'declined', id: 'b' },
      ],
      s,
    );
    expect(declined.requests).toEqual([]);
    expect(declined.friends).toEqual([]);

    const refused = run(
      [
        { type: 'respond-start', id: 'b', choice: 'decline' },
        { type: 'respond-failed', id: 'b' },
      ],
      s,
    );
    expect(refused.requests[0]).toMatchObject({ busy: null, error: FRIENDS_TEXTS.declineFailed });
    const refusedAccept = run(
      [
        { type: 'respond-start', id: 'b', choice: 'accept' },
        { type: 'respond-failed', id: 'b', message: 'Friend request not found.' },
      ],
      s,
    );
    expect(refusedAccept.requests[0]!.error).toBe('Friend request not found.');
  });

  it('a refresh asked before a local answer does not bring back what it changed', () => {
    const s = ready([friend('a')], [request('b'), request('c')]);
    const startedAt = s.version;
    const after = run(
      [
        { type: 'respond-start', id: 'b', choice: 'accept' },
        { type: 'accepted', id: 'b', friend: friend('b') },
        { type: 'respond-start', id: 'c', choice: 'decline' },
        { type: 'declined', id: 'c' },
        { type: 'unfriend-ask', id: 'a' },
        { type: 'unfriend-start' },
        { type: 'unfriended', id: 'a' },
        // the stale answers: a still a friend, b not yet, requests b and c still open
        { type: 'friends-loaded', friends: [friend('a')], startedAt },
        { type: 'requests-loaded', requests: [request('b'), request('c')], startedAt },
      ],
      s,
    );
    expect(after.friends.map((f) => f.id)).toEqual(['b']);
    expect(after.requests).toEqual([]);

    // a later refresh is the truth again (c asked anew, b's trips arrived)
    const later = run(
      [
        {
          type: 'friends-loaded',
          friends: [friend('b', [trip('t', [dest('d')])])],
          startedAt: after.version,
        },
        { type: 'requests-loaded', requests: [request('c')], startedAt: after.version },
      ],
      after,
    );
    expect(later.friends[0]!.trips).toHaveLength(1);
    expect(later.requests.map((e) => e.request._id)).toEqual(['c']);
  });

  it('Unfriend asks first; cancel keeps the friend; a failure stays in the dialog', () => {
    const s = ready([friend('a'), friend('b')]);
    expect(run([{ type: 'unfriend-ask', id: 'zz' }], s)).toBe(s);
    const asking = run([{ type: 'unfriend-ask', id: 'a' }], s);
    expect(asking.unfriend).toEqual({ friend: friend('a'), busy: false, error: null });
    expect(run([{ type: 'unfriend-cancel' }], asking).unfriend).toBeNull();

    const busy = run([{ type: 'unfriend-start' }], asking);
    expect(run([{ type: 'unfriend-cancel' }], busy)).toBe(busy); // not while the call runs
    const failed = run([{ type: 'unfriend-failed' }], busy);
    expect(failed.unfriend).toMatchObject({ busy: false, error: FRIENDS_TEXTS.unfriendFailed });
    expect(failed.friends).toHaveLength(2);

    const done = run([{ type: 'unfriend-start' }, { type: 'unfriended', id: 'a' }], failed);
    expect(done.unfriend).toBeNull();
    expect(done.friends.map((f) => f.id)).toEqual(['b']);
    expect(done.notice).toBe(FRIENDS_TEXTS.unfriended('Friend a'));
  });
});

describe('friends in pages', () => {
  it('the first page shows at once, each next one adds its friends and pins, by name', () => {
    const c = friend('c', [trip('tc', [dest('dc')])]);
    const a = friend('a', [trip('ta', [dest('da1'), dest('da2')])]);
    const b = friend('b', [trip('tb', [dest('db')])]);
    const first = run([{ type: 'friends-page', friends: [c], startedAt: 0 }]);
    expect(first.friendsLoad).toBe('ready');
    expect(first.friends.map((f) => f.id)).toEqual(['c']);
    expect(friendMarkers(first.friends).map((m) => m.id)).toEqual(['dc']);
    const second = run([{ type: 'friends-page', friends: [b, a], startedAt: 0 }], first);
    expect(second.friends.map((f) => f.id)).toEqual(['a', 'b', 'c']);
    expect(
      friendMarkers(second.friends)
        .map((m) => m.id)
        .sort(),
    ).toEqual(['da1', 'da2', 'db', 'dc'].sort());
    const done = run([{ type: 'friends-loaded', friends: [c, b, a], startedAt: 0 }], second);
    expect(done.friends.map((f) => f.id)).toEqual(['a', 'b', 'c']);
  });

  it('a refresh page updates the friends it names and keeps the others until every page is in', () => {
    const shown = ready([friend('a'), friend('b'), friend('c')]);
    const withTrip = friend('b', [trip('tb', [dest('db')])]);
    const page = run([{ type: 'friends-page', friends: [withTrip], startedAt: 0 }], shown);
    expect(page.friends.map((f) => f.id)).toEqual(['a', 'b', 'c']);
    expect(page.friends[1]!.trips).toHaveLength(1);
    // c unfriended elsewhere: gone once the whole list is in
    const done = run(
      [{ type: 'friends-loaded', friends: [friend('a'), withTrip], startedAt: 0 }],
      page,
    );
    expect(done.friends.map((f) => f.id)).toEqual(['a', 'b']);
  });

  it('a page asked for before an unfriending here does not bring the friend back', () => {
    const shown = ready([friend('a'), friend('b')]);
    const startedAt = shown.version;
    const gone = run([{ type: 'unfriended', id: 'b' }], shown);
    const page = run([{ type: 'friends-page', friends: [friend('b')], startedAt }], gone);
    expect(page.friends.map((f) => f.id)).toEqual(['a']);
  });
});

describe('friend pins', () => {
  it('every destination of every friend, with the friend’s name and picture; bad positions left out', () => {
    const friends = [
      friend('a', [
        trip('t1', [dest('d1', 48.85, 2.35), dest('d2', 95, 0)]),
        trip('t2', [dest('d3')]),
      ]),
      friend('b'),
    ];
    const markers = friendMarkers(friends);
    expect(markers.map((m) => m.id)).toEqual(['d1', 'd3']);
    expect(markers[0]).toEqual({
      kind: 'friend',
      id: 'd1',
      name: 'Place d1',
      lat: 48.85,
      lng: 2.35,
      startDate: '2025-01-01',
      endDate: '2025-01-02',
      photos: ['/api/photos/t/d1.jpg'],
      friendId: 'a',
      friendName: 'Friend a',
      friendPicture: '/pic/a.png',
    });
    expect(friendSummary(friends[0]!)).toBe('2 trips · 3 destinations');
    expect(friendSummary(friends[1]!)).toBe('No trips yet');
  });
});

describe("a friend's destination detail", () => {
  it('is read at the friend and destination ids, each escaped', () => {
    expect(friendDestinationPath('u 1', 'd/2')).toBe('/api/friends/u%201/destinations/d%2F2');
  });
});
