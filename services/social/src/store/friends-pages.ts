import type { FriendsCache, FriendsPage, FriendsPageKey, FriendsPageRead } from './friends-cache';
import type { FriendsStore } from './friends';

/** The channel of migration `004_friends_changed_notify`: payload, a user id. */
export const FRIENDS_CHANGED_CHANNEL = 'social_friends_changed';

/**
 * Pages answered from a `FriendsCache` when it holds them, else from `read` (the source, a
 * query), stored for the next read when the cache's rules allow (friends-cache.ts: a page is
 * dropped when its user or any user it names as a subject changes). With no cache, always
 * `read`. `GET /api/friends` and `GET /api/feed` each have one.
 */
export class CachedPagesStore {
  constructor(
    private readonly read: (key: FriendsPageKey) => Promise<FriendsPageRead>,
    readonly cache: FriendsCache | null,
  ) {}

  async get(key: FriendsPageKey): Promise<FriendsPage> {
    const cache = this.cache;
    if (cache === null) return this.read(key);
    const cached = cache.get(key);
    if (cached) return cached;
    const token = cache.begin();
    let read: FriendsPageRead | null = null;
    try {
      read = await this.read(key);
      return read;
    } finally {
      cache.end(token, key, read);
    }
  }
}

/**
 * The pages of `GET /api/friends`: from the cache when it holds them, else from the store's
 * query (the source), stored for the next read when the cache's rules allow (friends-cache.ts).
 * With no cache (`FRIENDS_CACHE_MAX_BYTES=0`), always the query.
 */
export class FriendPagesStore extends CachedPagesStore {
  constructor(store: FriendsStore, cache: FriendsCache | null) {
    super(async (key) => {
      const { body, last, friendIds } = await store.friendsPageJson(
        key.userId,
        key.afterId,
        key.limit,
      );
      return { body: Buffer.from(body, 'utf8'), last, friendIds };
    }, cache);
  }

  page(userId: string, afterId: string | null, limit: number): Promise<FriendsPage> {
    return this.get({ userId, afterId, limit });
  }
}
