/**
 * What social refuses, in its own words: the use cases throw these, and the routes' error map
 * (routes/errors.ts) is the one place saying what each is in HTTP.
 */

/** What was not found: a friend request, a friendship, a user, a friend's destination. */
export type Missing = 'request' | 'friendship' | 'user' | 'destination' | 'friendStats';

export class NotFoundError extends Error {
  constructor(readonly what: Missing) {
    super(`${what} not found`);
    this.name = 'NotFoundError';
  }
}

/** `add-friend` refused: asking oneself, or one already a friend. */
export class AddFriendRefusedError extends Error {
  constructor(readonly reason: 'yourself' | 'alreadyFriends') {
    super(`add-friend refused: ${reason}`);
    this.name = 'AddFriendRefusedError';
  }
}
