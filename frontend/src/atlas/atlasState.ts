import type { FriendStatsResponse, StatsResponse } from '@wayfarer/contracts';

/**
 * The /atlas screen's state: the user's figures, the friends for the picker, the
 * chosen friend and their figures. Pure: `useAtlas.ts` makes the calls. A friend's answer that
 * arrives after another friend was chosen is dropped.
 */

export interface FriendOption {
  id: string;
  name: string;
}

export type Load<T> =
  { status: 'loading' } | { status: 'failed'; message: string } | { status: 'ready'; data: T };

export interface AtlasState {
  stats: Load<StatsResponse>;
  friends: Load<FriendOption[]>;
  /** The friend chosen in the picker, or null. */
  friendId: string | null;
  /** That friend's figures (null while none is chosen). */
  friend: Load<FriendStatsResponse> | null;
}

export type AtlasAction =
  | { type: 'statsLoading' }
  | { type: 'statsLoaded'; stats: StatsResponse }
  | { type: 'statsFailed'; message: string }
  | { type: 'friendsLoaded'; friends: FriendOption[] }
  | { type: 'friendsFailed'; message: string }
  | { type: 'pickFriend'; friendId: string | null }
  | { type: 'friendLoaded'; friendId: string; stats: FriendStatsResponse }
  | { type: 'friendFailed'; friendId: string; message: string };

export const initialAtlasState: AtlasState = {
  stats: { status: 'loading' },
  friends: { status: 'loading' },
  friendId: null,
  friend: null,
};

export const ATLAS_TEXTS = {
  loadFailed: 'Your atlas could not be loaded.',
  friendsFailed: 'Your friends could not be loaded.',
  friendFailed: 'Their atlas could not be loaded.',
  empty: 'No trips yet: your atlas fills in as you add them.',
  noFriends: 'Add friends to compare your atlases.',
  noneShared: 'No country in common yet.',
} as const;

export function atlasReducer(state: AtlasState, action: AtlasAction): AtlasState {
  switch (action.type) {
    case 'statsLoading':
      return { ...state, stats: { status: 'loading' } };
    case 'statsLoaded':
      return { ...state, stats: { status: 'ready', data: action.stats } };
    case 'statsFailed':
      return { ...state, stats: { status: 'failed', message: action.message } };
    case 'friendsLoaded': {
      const friends = [...action.friends].sort((a, b) => a.name.localeCompare(b.name));
      // the chosen friend is no longer one: the overlay goes
      const keep = state.friendId !== null && friends.some((f) => f.id === state.friendId);
      return {
        ...state,
        friends: { status: 'ready', data: friends },
        ...(keep ? {} : { friendId: null, friend: null }),
      };
    }
    case 'friendsFailed':
      return { ...state, friends: { status: 'failed', message: action.message } };
    case 'pickFriend':
      if (action.friendId === state.friendId) return state;
      return {
        ...state,
        friendId: action.friendId,
        friend: action.friendId === null ? null : { status: 'loading' },
      };
    case 'friendLoaded':
      if (action.friendId !== state.friendId) return state;
      return { ...state, friend: { status: 'ready', data: action.stats } };
    case 'friendFailed':
      if (action.friendId !== state.friendId) return state;
      return { ...state, friend: { status: 'failed', message: action.message } };
  }
}

/** Who has been to a country: the map's fill. */
export type Visit = 'mine' | 'friend' | 'both';

/** Each country code either side has visited, and by whom. */
export function visitsByCode(
  mine: readonly { code: string }[],
  theirs: readonly { code: string }[] | null,
): Map<string, Visit> {
  const visits = new Map<string, Visit>();
  for (const { code } of mine) visits.set(code, 'mine');
  for (const { code } of theirs ?? []) visits.set(code, visits.has(code) ? 'both' : 'friend');
  return visits;
}

/** The friend's answer when it is in, else null. */
export function friendStats(state: AtlasState): FriendStatsResponse | null {
  return state.friend?.status === 'ready' ? state.friend.data : null;
}

/** The chosen friend's name ('' when none or not in the list). */
export function friendName(state: AtlasState): string {
  if (state.friends.status !== 'ready' || state.friendId === null) return '';
  return state.friends.data.find((f) => f.id === state.friendId)?.name ?? '';
}

const listFormat = new Intl.ListFormat('en', { style: 'long', type: 'conjunction' });

/** "You have both been to France and Italy." (or that there is none yet). */
export function sharedLine(shared: readonly { name: string }[]): string {
  if (shared.length === 0) return ATLAS_TEXTS.noneShared;
  return `You have both been to ${listFormat.format(shared.map((c) => c.name))}.`;
}

/** A country's flag emoji from its alpha-2 code (two regional indicator letters). */
export function flagEmoji(code: string): string {
  if (!/^[A-Z]{2}$/.test(code)) return '';
  return String.fromCodePoint(...[...code].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

const wholeNumber = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });

/** "12,345 km" (rounded to the kilometre). */
export function formatKm(km: number): string {
  return `${wholeNumber.format(Math.round(km))} km`;
}

/** The world share (0..1) as a percentage: "4.6%", "<0.1%" for a sliver, "0%" for none. */
export function formatShare(share: number): string {
  if (share <= 0) return '0%';
  const percent = share * 100;
  if (percent < 0.1) return '<0.1%';
  return `${Number(percent.toFixed(1))}%`;
}

/** "1 country", "3 countries". */
export function plural(count: number, one: string, many: string): string {
  return `${wholeNumber.format(count)} ${count === 1 ? one : many}`;
}

export interface Tile {
  label: string;
  value: string;
  detail?: string;
}

/** The figures as the tiles show them. */
export function statTiles(stats: StatsResponse): Tile[] {
  return [
    {
      label: 'Countries',
      value: wholeNumber.format(stats.countryCount),
      detail: `${formatShare(stats.worldShare)} of the world`,
    },
    { label: 'Trips', value: wholeNumber.format(stats.tripCount) },
    { label: 'Destinations', value: wholeNumber.format(stats.destinationCount) },
    { label: 'Days travelled', value: wholeNumber.format(stats.daysTravelled) },
    { label: 'Distance', value: formatKm(stats.distanceKm) },
  ];
}
