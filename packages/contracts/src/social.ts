import { z } from 'zod';
import { defineEvent, Topics } from './events';
import { DestinationPlace } from './trips';

/**
 * Friendship events (published by social). The aggregate id is the friendship id: the two
 * user ids sorted and joined with '_' (the same rule as the spec's chat room id).
 */
export function friendshipId(a: string, b: string): string {
  return [a, b].sort().join('_');
}

const Pair = z.object({ userIds: z.tuple([z.string(), z.string()]) });

/** Published by social when a user asks another (no consumer yet). */
export const FriendRequested = defineEvent({
  topic: Topics.socialFriendship,
  type: 'friend.requested',
  version: 1,
  payload: z.object({ requestId: z.string(), fromUserId: z.string(), toUserId: z.string() }),
});

/**
 * Two users became friends. `by` (absent in older events): the one whose answer made
 * the friendship (accepting the other's request, or asking one who had asked first), so the other
 * can be told their request was accepted.
 */
export const FriendshipCreated = defineEvent({
  topic: Topics.socialFriendship,
  type: 'friendship.created',
  version: 1,
  payload: Pair.extend({ by: z.string().optional() }),
});

/**
 * An unfriending, or (`erased: true`) a friendship ended because one of the two closed their
 * account (`user.deleted`): a consumer then forgets the pair entirely instead of keeping an
 * inactive record of it (docs/architecture.md, "Erasure"). Older consumers ignore the flag.
 */
export const FriendshipRemoved = defineEvent({
  topic: Topics.socialFriendship,
  type: 'friendship.removed',
  version: 1,
  payload: Pair.extend({ erased: z.boolean().optional() }),
});

/*
 * The social service's API. Field names are the spec's.
 */

/** Limits of the social API, shared by the client and the service. */
export const SocialLimits = {
  /** `GET /api/search-users?query=`: longer queries are refused with 400. */
  searchQueryMax: 100,
  /** At most this many users in one search answer (best matches first: by name). */
  searchResultsMax: 20,
  /**
   * `GET /api/friends`: friends per page when `limit` is not given. Five friends with 20 trips
   * of 5 destinations each are about 80 KB: the first page stays within 3x of a primary-key
   * read (the budget of bench/social/friends.bench.ts); the screen reads the rest behind it.
   */
  friendsPageDefault: 5,
  /** `GET /api/friends?limit=`: the largest page asked for (more answers 400). */
  friendsPageMax: 50,
  /** `GET /api/feed`: friends' trips per page when `limit` is not given. */
  feedPageDefault: 10,
  /** `GET /api/feed?limit=`: the largest page asked for (more answers 400). */
  feedPageMax: 50,
} as const;

/**
 * `GET /api/friends` answers one page of friends; when more follow, this response header holds
 * the opaque cursor to send back as `?cursor=` for the next page (absent on the last page).
 */
export const FRIENDS_NEXT_CURSOR_HEADER = 'x-next-cursor';

/** What the service answers (`{message}`), and the screens may show. */
export const SocialMessages = {
  requestSent: 'Friend request sent.',
  /** `add-friend` to someone who had already asked the caller: the request becomes a friendship. */
  nowFriends: 'You are now friends.',
  alreadyFriends: 'You are already friends.',
  notYourself: 'You cannot add yourself as a friend.',
  userNotFound: 'User not found.',
  requestNotFound: 'Friend request not found.',
  requestDeclined: 'Friend request declined.',
  notFriends: 'You are not friends with this user.',
  unfriended: 'Friend removed.',
  destinationNotFound: 'Destination not found.',
  badFriendsLimit: `limit must be a whole number from 1 to ${SocialLimits.friendsPageMax}.`,
  badFriendsCursor: 'Invalid cursor: send back the x-next-cursor of the previous page.',
  /** After the parameter's name: `limit: must be ...` (service-kit names the field). */
  badFeedLimit: `must be a whole number from 1 to ${SocialLimits.feedPageMax}.`,
  badFeedCursor: 'Invalid cursor: send back the nextCursor of the previous page.',
  queryTooLong: `Search query must be at most ${SocialLimits.searchQueryMax} characters.`,
} as const;

/**
 * A destination of a friend's trip, as `GET /api/friends` answers it (spec: Destination, with
 * `_id`): what the friends list and the map pins need, like trips' `TripSummary`. `photos` holds
 * at most the first photo (the pin's thumbnail, a plain `/api/photos/<trip>/<photo>` URL, which
 * trips serves to the owner's friends). No `story` here: the list would carry a preview of every
 * destination of every friend that no screen shows (about a third of the bytes of the
 * list's budget). When the friend info window opens it reads every photo and the story's
 * preview from
 * `GET /api/friends/{friendId}/destinations/{destinationId}` (`FriendDestinationDetail`) and the
 * full story from `GET /api/journal/{destinationId}`, read-only.
 */
export const FriendDestination = DestinationPlace.extend({
  photos: z.array(z.string()).max(1),
});
export type FriendDestination = z.infer<typeof FriendDestination>;

/**
 * `GET /api/friends/{friendId}/destinations/{destinationId}`: one destination of a current
 * friend's trip with every photo URL and `story`, the story's preview (100 characters then
 * `...`; the full text is the journal's). `404` when the two are not friends or the friend has
 * no such destination.
 */
export const FriendDestinationDetail = FriendDestination.extend({
  photos: z.array(z.string()),
  story: z.string(),
});
export type FriendDestinationDetail = z.infer<typeof FriendDestinationDetail>;

export const FriendTrip = z.object({
  _id: z.string(),
  name: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  destinations: z.array(FriendDestination),
});
export type FriendTrip = z.infer<typeof FriendTrip>;

/**
 * A friend (spec: Friend): `picture` is the profile picture URL auth announced, or contracts'
 * DEFAULT_AVATAR. `trips` newest first.
 */
export const Friend = z.object({
  id: z.string(),
  name: z.string(),
  picture: z.string(),
  trips: z.array(FriendTrip),
});
export type Friend = z.infer<typeof Friend>;

/**
 * `GET /api/friends?limit=&cursor=`: one page of the caller's friends, each with their trips,
 * ordered by friend id (a stable key: paging names every friend exactly once; the screens sort by
 * name). The answer stays the spec's bare array; without parameters it is the first page of
 * `SocialLimits.friendsPageDefault` friends, and the `FRIENDS_NEXT_CURSOR_HEADER` header names
 * the next page while there is one. A `limit` outside 1..`friendsPageMax` or a cursor the
 * service did not make answers 400.
 */
export const FriendsResponse = z.array(Friend);
export type FriendsResponse = z.infer<typeof FriendsResponse>;

/** A request someone sent to the caller (spec: Friend request), `_id` being the sender's id. */
export const FriendRequest = z.object({ _id: z.string(), name: z.string(), picture: z.string() });
export type FriendRequest = z.infer<typeof FriendRequest>;

/** `GET /api/friendRequests`: requests addressed to the caller, oldest first. */
export const FriendRequestsResponse = z.array(FriendRequest);
export type FriendRequestsResponse = z.infer<typeof FriendRequestsResponse>;

/** `POST /api/acceptFriend/{senderId}`: the new friend, with their trips, for the list. */
export const AcceptFriendResponse = z.object({ newFriend: Friend });
export type AcceptFriendResponse = z.infer<typeof AcceptFriendResponse>;

/** A friend without trips (`GET /api/getUserFriends`). */
export const FriendSummary = Friend.omit({ trips: true });
export type FriendSummary = z.infer<typeof FriendSummary>;

/** `GET /api/getUserFriends`: the caller's id and friends (by name), without trips. */
export const UserFriendsResponse = z.object({
  userId: z.string(),
  friends: z.array(FriendSummary),
});
export type UserFriendsResponse = z.infer<typeof UserFriendsResponse>;

/**
 * Where the caller stands with a user found by search: `none` (Add sends a request),
 * `pending` (the caller already asked them), `incoming` (they asked the caller: Add makes them
 * friends at once). Existing friends and the caller are never in the results.
 */
export const SearchUserStatus = z.enum(['none', 'pending', 'incoming']);
export type SearchUserStatus = z.infer<typeof SearchUserStatus>;

export const SearchUser = z.object({
  _id: z.string(),
  name: z.string(),
  picture: z.string(),
  status: SearchUserStatus,
});
export type SearchUser = z.infer<typeof SearchUser>;

/**
 * `GET /api/search-users?query=`: users whose name contains the query, ignoring case and accents
 * (`%`, `_`, `\` and regex characters match themselves), by name, at most
 * `SocialLimits.searchResultsMax`. A blank query answers `{users: []}`.
 */
export const SearchUsersResponse = z.object({ users: z.array(SearchUser) });
export type SearchUsersResponse = z.infer<typeof SearchUsersResponse>;

/**
 * `POST /api/add-friend/{id}`: `requested` (a request is pending; asking again answers the same
 * 200 and sends nothing new) or `friends` (they had asked the caller: now friends).
 * Errors: 400 yourself, 404 unknown user, 409 already friends.
 */
export const AddFriendResponse = z.object({
  status: z.enum(['requested', 'friends']),
  message: z.string(),
});
export type AddFriendResponse = z.infer<typeof AddFriendResponse>;

/**
 * `POST /api/declineFriend/{senderId}` and `DELETE /api/friends/{id}` (unfriend; not in the
 * spec) answer `{message}`; every error answers `{message}` too (404 when there is no such
 * request or friendship: a request addressed to someone else is not the caller's to answer).
 */
export const SocialMessageResponse = z.object({ message: z.string() });
export type SocialMessageResponse = z.infer<typeof SocialMessageResponse>;

/*
 * The feed of friends' travels: `GET /api/feed`.
 */

/** A destination of a trip in the feed: where and when (the feed shows one photo per trip). */
export const FeedDestination = FriendDestination.omit({ photos: true });
export type FeedDestination = z.infer<typeof FeedDestination>;

/**
 * One friend's trip in the feed: the friend (as auth last announced them), the trip, its
 * destinations in order, and `firstPhoto`: the plain `/api/photos/...` URL of its first
 * destination's first photo (the first destination that has one), or null. `createdAt`: when
 * the trip was created (ISO 8601), the feed's order.
 */
export const FeedItem = z.object({
  friend: FriendSummary,
  trip: FriendTrip.omit({ destinations: true }),
  destinations: z.array(FeedDestination),
  firstPhoto: z.string().nullable(),
  createdAt: z.string(),
});
export type FeedItem = z.infer<typeof FeedItem>;

/**
 * `GET /api/feed?limit=&cursor=`: the trips of the caller's current friends, newest first (by
 * creation, then id), one page of at most `limit` (default `SocialLimits.feedPageDefault`, 1 to
 * `feedPageMax`); `nextCursor` (opaque, null on the last page) is sent back as `?cursor=` for the
 * next. Never a private trip (`visibility: 'private'`), never a trip of someone who is not a
 * friend now (a friend removed takes their trips out of the next read). A bad `limit` or a cursor
 * the service did not make: 400.
 */
export const FeedResponse = z.object({
  items: z.array(FeedItem),
  nextCursor: z.string().nullable(),
});
export type FeedResponse = z.infer<typeof FeedResponse>;
