import type { FriendStatsResponse, StatsResponse } from '@wayfarer/contracts';
import { describe, expect, it } from 'vitest';
import {
  ATLAS_TEXTS,
  atlasReducer,
  flagEmoji,
  formatKm,
  formatShare,
  friendName,
  friendStats,
  initialAtlasState,
  plural,
  sharedLine,
  statTiles,
  visitsByCode,
  type AtlasAction,
  type AtlasState,
} from './atlasState';

const stats: StatsResponse = {
  countryCount: 3,
  countries: [
    { code: 'FR', name: 'France', firstVisited: '2023-05-01', destinations: 2 },
    { code: 'IT', name: 'Italy', firstVisited: '2023-05-04', destinations: 1 },
    { code: 'JP', name: 'Japan', firstVisited: '2024-03-10', destinations: 1 },
  ],
  continents: [
    { name: 'Europe', countryCount: 2 },
    { name: 'Asia', countryCount: 1 },
  ],
  worldShare: 0.0154,
  tripCount: 2,
  destinationCount: 4,
  daysTravelled: 19,
  distanceKm: 10234.56,
};

const bobStats: FriendStatsResponse = {
  ...stats,
  countryCount: 2,
  countries: [
    { code: 'IT', name: 'Italy', firstVisited: '2022-01-01', destinations: 1 },
    { code: 'BR', name: 'Brazil', firstVisited: '2022-02-01', destinations: 1 },
  ],
  sharedCountries: [{ code: 'IT', name: 'Italy' }],
};

const run = (actions: AtlasAction[], from: AtlasState = initialAtlasState) =>
  actions.reduce(atlasReducer, from);

const withFriends = run([
  { type: 'statsLoaded', stats },
  {
    type: 'friendsLoaded',
    friends: [
      { id: 'b', name: 'Bob' },
      { id: 'a', name: 'Alice' },
    ],
  },
]);

describe('atlas state', () => {
  it('starts loading, then holds the figures and the friends by name', () => {
    expect(initialAtlasState.stats.status).toBe('loading');
    expect(withFriends.stats).toEqual({ status: 'ready', data: stats });
    expect(withFriends.friends).toEqual({
      status: 'ready',
      data: [
        { id: 'a', name: 'Alice' },
        { id: 'b', name: 'Bob' },
      ],
    });
  });

  it("keeps the API's message when the figures fail, and loads again on retry", () => {
    const failed = run([{ type: 'statsFailed', message: 'Service unavailable.' }]);
    expect(failed.stats).toEqual({ status: 'failed', message: 'Service unavailable.' });
    expect(atlasReducer(failed, { type: 'statsLoading' }).stats.status).toBe('loading');
  });

  it('loads the chosen friend, shows their answer, and clears it when none is chosen', () => {
    const picked = atlasReducer(withFriends, { type: 'pickFriend', friendId: 'b' });
    expect(picked.friend).toEqual({ status: 'loading' });
    expect(friendName(picked)).toBe('Bob');
    expect(friendStats(picked)).toBeNull();
    const loaded = atlasReducer(picked, { type: 'friendLoaded', friendId: 'b', stats: bobStats });
    expect(friendStats(loaded)).toBe(bobStats);
    const cleared = atlasReducer(loaded, { type: 'pickFriend', friendId: null });
    expect(cleared.friend).toBeNull();
    expect(friendName(cleared)).toBe('');
  });

  it("drops a friend's answer that arrives after another friend was chosen", () => {
    const state = run(
      [
        { type: 'pickFriend', friendId: 'b' },
        { type: 'pickFriend', friendId: 'a' },
        { type: 'friendLoaded', friendId: 'b', stats: bobStats },
        { type: 'friendFailed', friendId: 'b', message: 'late' },
      ],
      withFriends,
    );
    expect(state.friendId).toBe('a');
    expect(state.friend).toEqual({ status: 'loading' });
    const failed = atlasReducer(state, {
      type: 'friendFailed',
      friendId: 'a',
      message: 'Friend not found.',
    });
    expect(failed.friend).toEqual({ status: 'failed', message: 'Friend not found.' });
  });

  it('drops the overlay when the chosen friend is no longer a friend', () => {
    const state = run(
      [
        { type: 'pickFriend', friendId: 'b' },
        { type: 'friendLoaded', friendId: 'b', stats: bobStats },
        { type: 'friendsLoaded', friends: [{ id: 'a', name: 'Alice' }] },
      ],
      withFriends,
    );
    expect(state.friendId).toBeNull();
    expect(state.friend).toBeNull();
  });
});

describe('atlas view model', () => {
  it("fills each country by who has been there: mine, the friend's, both", () => {
    const visits = visitsByCode(stats.countries, bobStats.countries);
    expect(Object.fromEntries(visits)).toEqual({
      FR: 'mine',
      IT: 'both',
      JP: 'mine',
      BR: 'friend',
    });
    expect(Object.fromEntries(visitsByCode(stats.countries, null))).toEqual({
      FR: 'mine',
      IT: 'mine',
      JP: 'mine',
    });
  });

  it('names the shared countries, or says there is none', () => {
    expect(sharedLine([{ name: 'Italy' }])).toBe('You have both been to Italy.');
    expect(sharedLine([{ name: 'France' }, { name: 'Italy' }, { name: 'Japan' }])).toBe(
      'You have both been to France, Italy, and Japan.',
    );
    expect(sharedLine([])).toBe(ATLAS_TEXTS.noneShared);
  });

  it('formats the figures', () => {
    expect(formatKm(10234.56)).toBe('10,235 km');
    expect(formatKm(0)).toBe('0 km');
    expect(formatShare(0.0154)).toBe('1.5%');
    expect(formatShare(0.1)).toBe('10%');
    expect(formatShare(0.0004)).toBe('<0.1%');
    expect(formatShare(0)).toBe('0%');
    expect(plural(1, 'country', 'countries')).toBe('1 country');
    expect(plural(1200, 'country', 'countries')).toBe('1,200 countries');
    expect(statTiles(stats)).toEqual([
      { label: 'Countries', value: '3', detail: '1.5% of the world' },
      { label: 'Trips', value: '2' },
      { label: 'Destinations', value: '4' },
      { label: 'Days travelled', value: '19' },
      { label: 'Distance', value: '10,235 km' },
    ]);
  });

  it('makes a flag from an alpha-2 code', () => {
    expect(flagEmoji('FR')).toBe('🇫🇷');
    expect(flagEmoji('JP')).toBe('🇯🇵');
    expect(flagEmoji('fr')).toBe('');
  });
});
