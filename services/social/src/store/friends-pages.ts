import type { FriendsCache, FriendsPage, FriendsPageKey } from './friends-cache';
import type { SocialStore } from './social';

/** The channel of migration `004_friends_changed_notify`: payload, a user id. */
export const FRIENDS_CHANGED_CHANNEL = 'social_friends_changed';

/**
 * The pages of `GET /api/friends`: from the cache when it holds them, else from the store's
 * query (the source), stored for the next read when the cache's rules allow (friends-cache.ts).
 * With no cache (`FRIENDS_CACHE_MAX_BYTES=0`), always the query.
 */
export class FriendsPages {
  constructor(
    private readonly store: SocialStore,
    readonly cache: FriendsCache | null,
  ) {}

  async page(userId: string, afterId: string | null, limit: number): Promise<FriendsPage> {
    const key: FriendsPageKey = { userId, afterId, limit };
    const cache = this.cache;
    if (cache === null) return this.read(key);
    const cached = cache.get(key);
    if (cached) return cached;
    const token = cache.begin();
    let read: Awaited<ReturnType<FriendsPages['read']>> | null = null;
    try {
      read = await this.read(key);
      return read;
    } finally {
      cache.end(token, key, read);
    }
  }

  private async read(key: FriendsPageKey) {
    const { body, last, friendIds } = await this.store.friendsPageJson(
      key.userId,
      key.afterId,
      key.limit,
    );
    return { body: Buffer.from(body, 'utf8'), last, friendIds };
  }
}
