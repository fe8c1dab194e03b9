import { composeService, groupId } from '@wayfarer/service-kit';
import { openPgService } from '@wayfarer/service-kit/pg';
import { buildApp } from './app';
import type { BucketListEnv } from './config';
import { CONSUMERS, type ConsumerOptions } from './events/consumers';
import { startErasureConsumer } from './events/consumers/erasure';
import { startTripConsumer } from './events/consumers/trips';
import { PUBLISHED_TOPICS } from './events/outbox';
import { ItemsStore } from './store/items';
import { migrations } from './store/migrations';

/** What a caller may set besides the env (tests: a consumer that skips earlier history). */
export type BucketListServiceOptions = ConsumerOptions;

/**
 * bucketlist's composition root: the whole running service from its env (PostgreSQL pool with
 * migrations applied, the outbox relay, the trips and erasure consumers, the app). `main.ts`
 * listens with it; the integration tests boot it with a test env. `close()` closes the app, the
 * consumers, the relay, then the pool.
 */
export async function createService(env: BucketListEnv, options: BucketListServiceOptions = {}) {
  return composeService(async (onClose) => {
    const { logger, identityProofSecret, pool, kafka, relay } = await openPgService({
      name: 'bucketlist',
      env,
      migrations,
      topics: PUBLISHED_TOPICS,
      onClose,
    });
    const items = new ItemsStore(pool);

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
    // a closed account's places (auth's user.deleted)
    const erasureConsumer = startErasureConsumer({
      kafka,
      pool,
      items,
      logger,
      groupId: groupId(env, CONSUMERS.erasure),
      ...options,
    });
    onClose(() => erasureConsumer.stop());

    const app = buildApp({ logger, pool, items, identityProofSecret, relay });
    return { app, logger, pool, items, relay, tripConsumer, erasureConsumer };
  });
}

export type BucketListService = Awaited<ReturnType<typeof createService>>;
