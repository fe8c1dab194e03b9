import type {
  AcceptFriendResponse,
  AddFriendResponse,
  Friend,
  FriendDestinationDetail,
  FriendRequest,
  SearchUser,
  SearchUsersResponse,
} from '@wayfarer/contracts';
import { FRIENDS_NEXT_CURSOR_HEADER } from '@wayfarer/contracts';
import { apiFetch, apiFetchWithHeaders } from '../api/client';

export type {
  Friend,
  FriendDestination,
  FriendRequest,
  FriendTrip,
  SearchUser,
} from '@wayfarer/contracts';

/**
 * The social calls of the friends screens (plus unfriending), answers as the
 * contract types them: `GET /api/friends`, `GET /api/friendRequests`,
 * `POST /api/acceptFriend/{id}` (`{newFriend}`), `POST /api/declineFriend/{id}`,
 * `DELETE /api/friends/{id}`, `GET /api/search-users?query=` (`{users}`),
 * `POST /api/add-friend/{id}`, and `GET /api/friends/{friendId}/destinations/{destinationId}`
 * (every photo of a friend's destination, for its info window).
 */

const path = (prefix: string, id: string) => `${prefix}/${encodeURIComponent(id)}`;

function list<T>(value: unknown, what: string): T[] {
  if (!Array.isArray(value)) throw new Error(`Unexpected ${what} answer`);
  return value as T[];
}

/** One page of `GET /api/friends` and the cursor of the next (null on the last page). */
export async function fetchFriendsPage(
  cursor: string | null,
  signal?: AbortSignal,
): Promise<{ friends: Friend[]; next: string | null }> {
  const url =
    cursor === null ? '/api/friends' : `/api/friends?cursor=${encodeURIComponent(cursor)}`;
  const { data, headers } = await apiFetchWithHeaders<unknown>(url, { signal });
  return { friends: list<Friend>(data, 'friends'), next: headers.get(FRIENDS_NEXT_CURSOR_HEADER) };
}

/**
 * Every friend: the pages of `GET /api/friends` one after the other, each handed to `onPage` as
 * it arrives (the screen shows the first at once and adds the others' pins as they come).
 */
export async function fetchFriends(
  signal?: AbortSignal,
  onPage?: (friends: Friend[]) => void,
): Promise<Friend[]> {
  const all: Friend[] = [];
  const seen = new Set<string>();
  let cursor: string | null = null;
  do {
    const page: { friends: Friend[]; next: string | null } = await fetchFriendsPage(cursor, signal);
    if (page.next !== null && page.next === cursor) throw new Error('Unexpected friends answer');
    const fresh = page.friends.filter((f) => !seen.has(f.id));
    fresh.forEach((f) => seen.add(f.id));
    all.push(...fresh);
    onPage?.(fresh);
    cursor = page.next;
  } while (cursor !== null);
  return all;
}

/** Where a friend's destination is read with every photo. */
export function friendDestinationPath(friendId: string, destinationId: string): string {
  return `${path('/api/friends', friendId)}${path('/destinations', destinationId)}`;
}

export async function fetchFriendDestination(
  friendId: string,
  destinationId: string,
  signal?: AbortSignal,
): Promise<FriendDestinationDetail> {
  const answer = await apiFetch<Partial<FriendDestinationDetail> | null>(
    friendDestinationPath(friendId, destinationId),
    { signal },
  );
  if (!answer || !Array.isArray(answer.photos)) throw new Error('Unexpected destination answer');
  return answer as FriendDestinationDetail;
}

export async function fetchFriendRequests(signal?: AbortSignal): Promise<FriendRequest[]> {
  return list<FriendRequest>(
    await apiFetch<unknown>('/api/friendRequests', { signal }),
    'friend requests',
  );
}

/** Accepts the request of sender `id`: the new friend, with their trips. */
export async function acceptFriend(id: string): Promise<Friend | null> {
  const answer = await apiFetch<Partial<AcceptFriendResponse> | null>(
    path('/api/acceptFriend', id),
    { method: 'POST' },
  );
  return answer?.newFriend ?? null;
}

export async function declineFriend(id: string): Promise<void> {
  await apiFetch(path('/api/declineFriend', id), { method: 'POST' });
}

export async function unfriend(id: string): Promise<void> {
  await apiFetch(path('/api/friends', id), { method: 'DELETE' });
}

export async function searchUsers(query: string, signal?: AbortSignal): Promise<SearchUser[]> {
  const answer = await apiFetch<Partial<SearchUsersResponse> | null>(
    `/api/search-users?query=${encodeURIComponent(query)}`,
    { signal },
  );
  return list<SearchUser>(answer?.users, 'search');
}

/** Sends a request to `id` (or, when they had asked first, makes you friends at once). */
export async function addFriend(id: string): Promise<AddFriendResponse['status']> {
  const answer = await apiFetch<Partial<AddFriendResponse> | null>(path('/api/add-friend', id), {
    method: 'POST',
    idempotent: true,
  });
  return answer?.status === 'friends' ? 'friends' : 'requested';
}
