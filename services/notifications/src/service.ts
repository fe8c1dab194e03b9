import { Redis } from 'ioredis';
import { composeService, groupIds } from '@wayfarer/service-kit';
import { openPgService } from '@wayfarer/service-kit/pg';
import { buildApp } from './app';
import type { NotificationsEnv } from './config';
import { CONSUMERS, startConsumers, type ConsumersOptions } from './events/consumers';
import { NotificationPusher, PUBLISHED_TOPICS } from './events/outbox';
import { startPruneJob } from './jobs/prune';
import { FriendshipsStore } from './store/friendships';
import { migrations } from './store/migrations';
import { NotificationsStore } from './store/notifications';
import { UsersStore } from './store/users';
import type { NotificationsDeps, NotificationsStores } from './usecases/deps';

/** What a caller may set besides the env (tests: consumers that skip earlier history, a clock). */
export type NotificationsServiceOptions = Pick<
  ConsumersOptions,
  'skipHistory' | 'maxRetryDelayMs'
> & {
  /** The clock of the 90-day bound (default the real one). */
  now?: () => Date;
};

/**
 * notifications' composition root: the whole running service from its env (PostgreSQL pool with
 * migrations applied, its relay (nothing to publish: it prunes the consumer markers), the Redis
 * connection of the live push, the four consumers, the 90-day prune job, the app). `main.ts` listens
 * with it; the integration tests boot it with a test env. `close()` closes the app, the prune job,
 * the consumers, Redis, the relay, then the pool.
 */
export async function createService(
  env: NotificationsEnv,
  options: NotificationsServiceOptions = {},
) {
  return composeService(async (onClose) => {
    const now = options.now ?? (() => new Date());
    const { logger, identityProofSecret, pool, kafka, relay } = await openPgService({
      name: 'notifications',
      env,
      migrations,
      topics: PUBLISHED_TOPICS,
      onClose,
    });
    const stores: NotificationsStores = {
      notifications: new NotificationsStore(pool),
      users: new UsersStore(),
      friendships: new FriendshipsStore(),
    };
    const deps: NotificationsDeps = { stores, now };

    // a push waits at most a second for Redis, then is logged as lost (the notification is
    // stored; the client reads it on its next GET)
    const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: 1, commandTimeout: 1000 });
    onClose(() => redis.quit().then(() => undefined));
    const pusher = new NotificationPusher(redis, logger);

    const consumers = startConsumers({
      kafka,
      pool,
      stores,
      pusher,
      logger,
      groupIds: groupIds(env, CONSUMERS),
      now,
      skipHistory: options.skipHistory,
      maxRetryDelayMs: options.maxRetryDelayMs,
    });
    for (const consumer of Object.values(consumers)) onClose(() => consumer.stop());

    // the 90-day bound's job (service-kit's startPeriodic), stopped before the pool closes
    const pruner = startPruneJob(deps, logger);
    onClose(() => pruner.stop());

    const app = buildApp({
      logger,
      pool,
      deps,
      identityProofSecret,
      consumers: Object.values(consumers),
    });
    return { app, logger, pool, stores, relay, redis, consumers, pruner };
  });
}

export type NotificationsService = Awaited<ReturnType<typeof createService>>;
