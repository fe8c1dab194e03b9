import { composeService, groupIds } from '@wayfarer/service-kit';
import { openPgService } from '@wayfarer/service-kit/pg';
import { buildApp } from './app';
import type { SocialEnv } from './config';
import { CONSUMERS, startConsumers, type ConsumersOptions } from './events/consumers';
import { PUBLISHED_TOPICS } from './events/outbox';
import { migrations } from './store/migrations';
import { SocialStore } from './store/social';

/** What a caller may set besides the env (tests: consumers that skip earlier history). */
export type SocialServiceOptions = Pick<ConsumersOptions, 'skipHistory' | 'maxRetryDelayMs'>;

/**
 * social's composition root: the whole running service from its env (PostgreSQL pool with
 * migrations applied, the outbox relay, the users and trips consumers, the app). `main.ts`
 * listens with it; the integration tests boot it with a test env. `close()` closes the app,
 * the consumers, the relay, then the pool.
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
    const store = new SocialStore(pool);

    const consumers = startConsumers({
      kafka,
      pool,
      logger,
      groupIds: groupIds(env, CONSUMERS),
      ...options,
    });
    onClose(() => consumers.users.stop());
    onClose(() => consumers.trips.stop());

    const app = buildApp({ logger, pool, store, identityProofSecret, relay });
    return { app, logger, pool, store, relay, consumers };
  });
}

export type SocialService = Awaited<ReturnType<typeof createService>>;
