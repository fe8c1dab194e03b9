import {
  composeService,
  createKafka,
  createLogger,
  groupId,
  loadIdentityProofSecret,
} from '@wayfarer/service-kit';
import { createPgPool, ensureDatabase, migrate, startOutboxRelay } from '@wayfarer/service-kit/pg';
import { buildApp } from './app';
import type { BucketListEnv } from './config';
import { PUBLISHED_TOPICS } from './events/outbox';
import { CONSUMERS, startTripConsumer, type TripConsumerOptions } from './events/trips';
import { ItemsStore } from './store/items';
import { migrations } from './store/migrations';

/** What a caller may set besides the env (tests: a consumer that skips earlier history). */
export type BucketListServiceOptions = Pick<TripConsumerOptions, 'skipHistory' | 'maxRetryDelayMs'>;

/**
 * bucketlist's composition root: the whole running service from its env (PostgreSQL pool with
 * migrations applied, the outbox relay, the trips consumer, the app). `main.ts` listens with
 * it; the integration tests boot it with a test env. `close()` closes the app, the consumer,
 * the relay, then the pool.
 */
export async function createService(env: BucketListEnv, options: BucketListServiceOptions = {}) {
  return composeService(async (onClose) => {
    const logger = createLogger('bucketlist', env.LOG_LEVEL);
    const identityProofSecret = loadIdentityProofSecret(env);

    if (env.PG_URL) {
      await ensureDatabase(env.PG_URL, new URL(env.DATABASE_URL).pathname.slice(1));
    }
    const pool = createPgPool(env.DATABASE_URL);
    onClose(() => pool.end());
    await migrate(pool, migrations);
    const items = new ItemsStore(pool);

    const kafka = createKafka({ clientId: 'bucketlist', brokers: env.KAFKA_BROKERS, logger });
    const relay = startOutboxRelay({
      pool,
      kafka,
      logger,
      topics: PUBLISHED_TOPICS,
      pollIntervalMs: env.OUTBOX_POLL_MS,
    });
    onClose(() => relay.stop());
    const tripConsumer = startTripConsumer({
      kafka,
      pool,
      items,
      logger,
      groupId: groupId(env, CONSUMERS.trips),
      onVisited: () => relay.kick(),
      ...options,
    });
    onClose(() => tripConsumer.stop());

    const app = buildApp({ logger, pool, items, identityProofSecret, relay });
    return { app, logger, pool, items, relay, tripConsumer };
  });
}

export type BucketListService = Awaited<ReturnType<typeof createService>>;
