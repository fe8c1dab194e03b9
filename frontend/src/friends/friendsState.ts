import type { FriendMarker } from '../map/types';
import type { Friend, FriendRequest } from './api';

/**
 * The /friends screen's state, free of React so its rules are unit
 * tested:
 *
 * - the friends (with pictures) and the friend requests load side by side; each can fail alone
 *   and says so (the original only logged it);
 * - Accept removes the request and adds the new friend to the list; Decline removes the request;
 *   a refused answer keeps the request and shows why (the original set a text it never showed);
 * - Unfriend asks first; once the server agrees the friend and their pins leave;
 * - `GET /api/friends` comes in pages: the first shows at once, each following one adds its
 *   friends (and their pins) as it arrives, and the whole list, once every page is in, replaces
 *   what was shown (a friend gone elsewhere leaves); the list is shown by name;
 * - the lists are refreshed now and then (a request accepted elsewhere, a friend's new trip); a
 *   refresh never undoes what happened here after it started.
 */

/** How often the open screen asks the server again. */
export const FRIENDS_REFRESH_MS = 10_000;

export const FRIENDS_TEXTS = {
  empty: 'You have no friends yet. Start by adding some!',
  loadFailed: 'Could not load your friends.',
  requestsFailed: 'Could not load your friend requests.',
  acceptFailed: 'Could not accept this request. Please try again.',
  declineFailed: 'Could not decline this request. Please try again.',
  unfriendFailed: 'Could not remove this friend. Please try again.',
  confirmUnfriend: (name: string) => `Remove ${name || 'this friend'} from your friends?`,
  unfriendDetail:
    'You will no longer see each other’s trips, photos and journals, or chat with each other.',
  accepted: (name: string) => `You and ${name || 'your new friend'} are now friends.`,
  unfriended: (name: string) => `${name || 'Your friend'} is no longer your friend.`,
} as const;

type Load = 'loading' | 'failed' | 'ready';

export interface RequestEntry {
  request: FriendRequest;
  busy: null | 'accept' | 'decline';
  error: string | null;
}

export interface FriendsState {
  friendsLoad: Load;
  requestsLoad: Load;
  friends: Friend[];
  requests: RequestEntry[];
  /** The friend whose removal is being confirmed (the dialog is open). */
  unfriend: null | { friend: Friend; busy: boolean; error: string | null };
  /** A short success note (accepted, unfriended). */
  notice: string | null;
  /** Bumped by every local change a refresh started earlier must not undo. */
  version: number;
  /** Friends removed here, with the version: a refresh asked earlier doesn't bring them back. */
  removed: Record<string, number>;
  /** Requests answered here, with the version: a refresh asked earlier doesn't bring them back. */
  answered: Record<string, number>;
  /** Friends added here (accepted), with the version they were added at. */
  added: Record<string, number>;
}

export type FriendsAction =
  | { type: 'load-start' }
  /** One page of friends (more may follow): added, or updating the ones shown. */
  | { type: 'friends-page'; friends: Friend[]; startedAt: number }
  /** Every friend (all pages in): the list is exactly these. */
  | { type: 'friends-loaded'; friends: Friend[]; startedAt: number }
  | { type: 'friends-failed' }
  | { type: 'requests-loaded'; requests: FriendRequest[]; startedAt: number }
  | { type: 'requests-failed' }
  | { type: 'respond-start'; id: string; choice: 'accept' | 'decline' }
  | { type: 'accepted'; id: string; friend: Friend | null }
  | { type: 'declined'; id: string }
  | { type: 'respond-failed'; id: string; message?: string }
  | { type: 'unfriend-ask'; id: string }
  | { type: 'unfriend-cancel' }
  | { type: 'unfriend-start' }
  | { type: 'unfriended'; id: string }
  | { type: 'unfriend-failed'; message?: string }
  | { type: 'notice-dismiss' };

export const initialFriendsState: FriendsState = {
  friendsLoad: 'loading',
  requestsLoad: 'loading',
  friends: [],
  requests: [],
  unfriend: null,
  notice: null,
  version: 0,
  removed: {},
  answered: {},
  added: {},
};

/** A friend from a request (before the server's list names their trips). */
function friendFromRequest(request: FriendRequest): Friend {
  return { id: request._id, name: request.name, picture: request.picture, trips: [] };
}

/** Friends by name (then id): the server pages them by id. */
const byName = (a: Friend, b: Friend) =>
  a.name.localeCompare(b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * An answer of friends: `complete` (every page) replaces the list, a page adds to it or
 * updates the friends it names.
 */
function mergeFriends(
  state: FriendsState,
  friends: Friend[],
  startedAt: number,
  complete: boolean,
): FriendsState {
  const fresh = friends.filter((f) => (state.removed[f.id] ?? -1) < startedAt);
  const ids = new Set(fresh.map((f) => f.id));
  // complete: accepted here after this answer was asked for (not in it yet) stays listed
  const kept = state.friends.filter(
    (f) => !ids.has(f.id) && (!complete || (state.added[f.id] ?? 0) > startedAt),
  );
  return { ...state, friendsLoad: 'ready', friends: [...fresh, ...kept].sort(byName) };
}

function mergeRequests(
  state: FriendsState,
  requests: FriendRequest[],
  startedAt: number,
): FriendsState {
  const shown = new Map(state.requests.map((e) => [e.request._id, e]));
  const entries = requests
    .filter((r) => (state.answered[r._id] ?? -1) < startedAt)
    .map((request) => {
      const entry = shown.get(request._id);
      return entry ? { ...entry, request } : { request, busy: null, error: null };
    });
  return { ...state, requestsLoad: 'ready', requests: entries };
}

function updateRequest(
  state: FriendsState,
  id: string,
  change: (entry: RequestEntry) => RequestEntry,
): FriendsState {
  let changed = false;
  const requests = state.requests.map((entry) => {
    if (entry.request._id !== id) return entry;
    const next = change(entry);
    if (next !== entry) changed = true;
    return next;
  });
  return changed ? { ...state, requests } : state;
}

/** The transitions. Anything not allowed in the current state returns the same object. */
export function friendsReducer(state: FriendsState, action: FriendsAction): FriendsState {
  switch (action.type) {
    case 'load-start':
      // A refresh of shown lists keeps them; only a failed load shows loading again.
      return {
        ...state,
        friendsLoad: state.friendsLoad === 'ready' ? 'ready' : 'loading',
        requestsLoad: state.requestsLoad === 'ready' ? 'ready' : 'loading',
      };
    case 'friends-page':
      return mergeFriends(state, action.friends, action.startedAt, false);
    case 'friends-loaded':
      return mergeFriends(state, action.friends, action.startedAt, true);
    case 'friends-failed':
      return state.friendsLoad === 'ready' ? state : { ...state, friendsLoad: 'failed' };
    case 'requests-loaded':
      return mergeRequests(state, action.requests, action.startedAt);
    case 'requests-failed':
      return state.requestsLoad === 'ready' ? state : { ...state, requestsLoad: 'failed' };
    case 'respond-start':
      return updateRequest(state, action.id, (e) =>
        e.busy ? e : { ...e, busy: action.choice, error: null },
      );
    case 'accepted': {
      const entry = state.requests.find((e) => e.request._id === action.id);
      if (!entry) return state;
      const friend = action.friend ?? friendFromRequest(entry.request);
      const version = state.version + 1;
      return {
        ...state,
        version,
        requests: state.requests.filter((e) => e !== entry),
        answered: { ...state.answered, [action.id]: version },
        added: { ...state.added, [friend.id]: version },
        friends: [...state.friends.filter((f) => f.id !== friend.id), friend].sort(byName),
        notice: FRIENDS_TEXTS.accepted(friend.name || entry.request.name),
      };
    }
    case 'declined': {
      if (!state.requests.some((e) => e.request._id === action.id)) return state;
      const version = state.version + 1;
      return {
        ...state,
        version,
        requests: state.requests.filter((e) => e.request._id !== action.id),
        answered: { ...state.answered, [action.id]: version },
      };
    }
    case 'respond-failed':
      return updateRequest(state, action.id, (e) =>
        e.busy
          ? {
              ...e,
              busy: null,
              error:
                action.message ??
                (e.busy === 'accept' ? FRIENDS_TEXTS.acceptFailed : FRIENDS_TEXTS.declineFailed),
            }
          : e,
      );
    case 'unfriend-ask': {
      if (state.unfriend) return state;
      const friend = state.friends.find((f) => f.id === action.id);
      return friend ? { ...state, unfriend: { friend, busy: false, error: null } } : state;
    }
    case 'unfriend-cancel':
      return state.unfriend && !state.unfriend.busy ? { ...state, unfriend: null } : state;
    case 'unfriend-start':
      return state.unfriend && !state.unfriend.busy
        ? { ...state, unfriend: { ...state.unfriend, busy: true, error: null } }
        : state;
    case 'unfriended': {
      const friend = state.friends.find((f) => f.id === action.id);
      const version = state.version + 1;
      return {
        ...state,
        version,
        friends: state.friends.filter((f) => f.id !== action.id),
        removed: { ...state.removed, [action.id]: version },
        unfriend: state.unfriend?.friend.id === action.id ? null : state.unfriend,
        notice: FRIENDS_TEXTS.unfriended(friend?.name ?? ''),
      };
    }
    case 'unfriend-failed':
      return state.unfriend?.busy
        ? {
            ...state,
            unfriend: {
              ...state.unfriend,
              busy: false,
              error: action.message ?? FRIENDS_TEXTS.unfriendFailed,
            },
          }
        : state;
    case 'notice-dismiss':
      return state.notice ? { ...state, notice: null } : state;
  }
}

export const hasPosition = (lat: number, lng: number) =>
  Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180;

/** One destination of a friend's as a friend pin carrying the friend's id (photos load later). */
export function friendPin(
  friend: { id: string; name: string; picture: string },
  d: Omit<Friend['trips'][number]['destinations'][number], 'photos'>,
  photos: string[],
): FriendMarker {
  return {
    kind: 'friend',
    id: d._id,
    name: d.name,
    lat: d.latitude,
    lng: d.longitude,
    ...(d.startDate ? { startDate: d.startDate } : {}),
    ...(d.endDate ? { endDate: d.endDate } : {}),
    photos,
    friendId: friend.id,
    friendName: friend.name,
    friendPicture: friend.picture,
  };
}

/**
 * Every destination of every friend's trips as a friend pin: the
 * list names only each destination's first photo, so the pin carries its friend's id for the
 * info window to load them all (`useFriendPhotos`).
 */
export function friendMarkers(friends: readonly Friend[]): FriendMarker[] {
  return friends.flatMap((friend) =>
    friend.trips.flatMap((trip) =>
      trip.destinations
        .filter((d) => hasPosition(d.latitude, d.longitude))
        .map((d) => friendPin(friend, d, d.photos)),
    ),
  );
}

/** 'N trips · M destinations' for a friend's card. */
export function friendSummary(friend: Friend): string {
  const trips = friend.trips.length;
  const places = friend.trips.reduce((n, t) => n + t.destinations.length, 0);
  if (trips === 0) return 'No trips yet';
  return `${trips} trip${trips === 1 ? '' : 's'} · ${places} destination${places === 1 ? '' : 's'}`;
}
