import { defaultAtlas } from '@wayfarer/atlas';
import { cacheMetrics, composeService, connectFences, groupIds } from '@wayfarer/service-kit';
import { listenPg, openPgService } from '@wayfarer/service-kit/pg';
import { buildApp } from './app';
import { FeedStore } from './store/feed';
import type { SocialEnv } from './config';
import { CONSUMERS, startConsumers, type ConsumersOptions } from './events/consumers';
import { PUBLISHED_TOPICS } from './events/outbox';
import { FriendsStore } from './store/friends';
import { FriendsCache } from './store/friends-cache';
import { FRIENDS_CHANGED_CHANNEL, FriendPagesStore } from './store/friends-pages';
import { FriendshipsStore } from './store/friendships';
import { migrations } from './store/migrations';
import { FriendRequestsStore } from './store/requests';
import { SearchStore } from './store/search';
import { backfillCountries, StatsStore } from './store/stats';
import { FriendTripsStore } from './store/trips';
import { UsersStore } from './store/users';
import type { SocialDeps, SocialStores } from './usecases/deps';

/** What a caller may set besides the env (tests: consumers that skip earlier history). */
export type SocialServiceOptions = Pick<ConsumersOptions, 'skipHistory' | 'maxRetryDelayMs'>;

/**
 * social's composition root: the whole running service from its env (PostgreSQL pool with
 * migrations applied, the outbox relay, the stores, the friends, feed and stats caches with
 * their LISTEN connection, the country atlas and the countries backfill, the users and trips
 * consumers, Redis for the access fences, the app). `main.ts` listens with it; the
 * integration tests boot it with a test env. `close()` closes the app, the consumers, the
 * LISTEN connection, Redis, the relay, then the pool.
 */
export async function createService(env: SocialEnv, options: SocialServiceOptions = {}) {
  return composeService(async (onClose) => {
    const { logger, identityProofSecret, pool, kafka, relay } = await openPgService({
      name: 'social',
      env,
      migrations,
      topics: PUBLISHED_TOPICS,
      onClose,
    });
    // a bound of 0 turns a cache off
    const cacheOf = (maxBytes: number) => (maxBytes > 0 ? new FriendsCache(maxBytes) : null);
    // GET /api/friends's pages, kept exact by PostgreSQL's notifications of every change
    // (migration 004) heard on a connection of their own; while it is lost, no cache
    const friendsCache = cacheOf(env.FRIENDS_CACHE_MAX_BYTES);
    // GET /api/feed's pages: the same rules, the same notifications
    const feedCache = cacheOf(env.FEED_CACHE_MAX_BYTES);
    // GET /api/stats's answers: the same rules, the same notifications
    const statsCache = cacheOf(env.STATS_CACHE_MAX_BYTES);
    const caches = [friendsCache, feedCache, statsCache].filter(
      (c): c is FriendsCache => c !== null,
    );
    const friendsListener =
      caches.length > 0
        ? listenPg({
            connectionString: env.DATABASE_URL,
            channel: FRIENDS_CHANGED_CHANNEL,
            applicationName: 'social friends cache',
            logger,
            onNotify: (userId) => caches.forEach((c) => c.notify(userId)),
            onListening: () => caches.forEach((c) => c.listening()),
            onReset: () => caches.forEach((c) => c.reset()),
          })
        : null;
    if (friendsListener) onClose(() => friendsListener.close());
    for (const [name, cache] of [
      ['friends', friendsCache],
      ['feed', feedCache],
      ['stats', statsCache],
    ] as const) {
      if (!cache) continue;
      onClose(
        cacheMetrics(name, () => {
          const { hits, misses } = cache.stats();
          return { hit: hits, miss: misses };
        }),
      );
    }
    // access fences (Redis): unfriending ends access at once; search leaves closed accounts out
    const fences = await connectFences(env.REDIS_URL, logger);
    onClose(() => fences.close());
    const stores: SocialStores = {
      friendships: new FriendshipsStore(pool),
      requests: new FriendRequestsStore(pool),
      friends: new FriendsStore(pool),
      search: new SearchStore(pool),
      users: new UsersStore(),
      trips: new FriendTripsStore(),
    };
    const friendsPages = new FriendPagesStore(stores.friends, friendsCache);
    const feedPages = new FeedStore(pool, feedCache);
    const statsPages = new StatsStore(pool, statsCache);
    const deps: SocialDeps = {
      pool,
      stores,
      friendsPages,
      feedPages,
      statsPages,
      fences: fences.fences,
      relay,
      // a friendship changed through this instance drops the pages at once (read your writes)
      friendshipsChanged: (userIds) => {
        for (const id of userIds) caches.forEach((c) => c.notify(id));
      },
    };

    // the country outlines' index (about 1.3 s), built before the service is ready and before
    // the consumers, which find each new destination's country; then the countries of trips
    // stored before migration 008
    defaultAtlas();
    const backfilled = await backfillCountries(pool);
    if (backfilled > 0) logger.info({ trips: backfilled }, 'destination countries filled');

    const consumers = startConsumers({
      kafka,
      pool,
      stores,
      logger,
      groupIds: groupIds(env, CONSUMERS),
      ...options,
    });
    onClose(() => consumers.users.stop());
    onClose(() => consumers.trips.stop());

    const app = buildApp({
      logger,
      pool,
      deps,
      identityProofSecret,
      consumers: [consumers.users, consumers.trips],
    });
    return {
      app,
      logger,
      pool,
      stores,
      friendsPages,
      feedPages,
      statsPages,
      friendsListener,
      relay,
      consumers,
    };
  });
}

export type SocialService = Awaited<ReturnType<typeof createService>>;
