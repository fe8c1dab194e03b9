import type { TripDoc } from './trip';

/*
 * Who may read a trip and its photos: the one rule, pure. Its owner always; a friend
 * of the owner only when the trip is `friends`; anyone else never, answered as an unknown trip
 * (the same 404), so nobody learns that a trip they may not see exists. Links (`domain/share.ts`)
 * are the other way in, for people without an account.
 */

/** What `userId` may do with `trip` before friendships are known. */
export type ReadAccess =
  /** The owner. */
  | 'granted'
  /** Only if `userId` is a friend of the owner (the trip is `friends`). */
  | 'if-friend'
  /** Never (a private trip of someone else). */
  | 'denied';

/**
 * The access of `userId` to `trip`, as far as it can be told without friendships: so the
 * caller asks whether they are friends only when the answer depends on it.
 */
export function readAccess(
  trip: Pick<TripDoc, 'ownerId' | 'visibility'>,
  userId: string,
): ReadAccess {
  if (trip.ownerId === userId) return 'granted';
  return trip.visibility === 'private' ? 'denied' : 'if-friend';
}

/** Whether `userId` may read `trip`, `isFriend` saying whether they are a friend of its owner. */
export function mayRead(
  trip: Pick<TripDoc, 'ownerId' | 'visibility'>,
  userId: string,
  isFriend: boolean,
): boolean {
  const access = readAccess(trip, userId);
  return access === 'granted' || (access === 'if-friend' && isFriend);
}
