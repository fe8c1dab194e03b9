import type { AccessFences, OutboxRelay } from '@wayfarer/service-kit';
import type { Pool } from '@wayfarer/service-kit/pg';
import type { FeedStore } from '../store/feed';
import type { FriendsStore } from '../store/friends';
import type { FriendPagesStore } from '../store/friends-pages';
import type { FriendshipsStore } from '../store/friendships';
import type { FriendRequestsStore } from '../store/requests';
import type { SearchStore } from '../store/search';
import type { StatsStore } from '../store/stats';
import type { FriendTripsStore } from '../store/trips';
import type { UsersStore } from '../store/users';

/** social's stores, one per aggregate or read model. */
export interface SocialStores {
  friendships: FriendshipsStore;
  requests: FriendRequestsStore;
  friends: FriendsStore;
  search: SearchStore;
  users: UsersStore;
  trips: FriendTripsStore;
}

/** What social's use cases work with (built once by service.ts). */
export interface SocialDeps {
  pool: Pool;
  stores: SocialStores;
  /** `GET /api/friends`'s pages (cached, the friends store's query underneath). */
  friendsPages: FriendPagesStore;
  /** `GET /api/feed`'s pages (cached, the feed query underneath). */
  feedPages: FeedStore;
  /** `GET /api/stats`'s answers (cached per user, computed from the stored trips underneath). */
  statsPages: StatsStore;
  /**
   * Access fences (Redis): an unfriending writes its pair's before it commits, so trips,
   * journal and chat refuse the pair at once; search leaves closed accounts out.
   */
  fences: Pick<AccessFences, 'endFriendship' | 'liftEndedFriendship' | 'closedAmong'>;
  /** Kicked after a commit that enqueued events; optional (the relay also polls). */
  relay?: Pick<OutboxRelay, 'kick'>;
  /**
   * Called after a commit that changed friendships, with both users: the caches drop their
   * pages at once, so whoever made the change reads it (other instances hear of it through
   * PostgreSQL's notification, store/friends-pages.ts).
   */
  friendshipsChanged: (userIds: readonly string[]) => void;
}
