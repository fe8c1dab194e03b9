import {
  composeService,
  createKafka,
  createLogger,
  groupId,
  loadIdentityProofSecret,
} from '@wayfarer/service-kit';
import { createPgPool, ensureDatabase, migrate, startOutboxRelay } from '@wayfarer/service-kit/pg';
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
    const logger = createLogger('social', env.LOG_LEVEL);
    const identityProofSecret = loadIdentityProofSecret(env);

    if (env.PG_URL) {
      await ensureDatabase(env.PG_URL, new URL(env.DATABASE_URL).pathname.slice(1));
    }
    const pool = createPgPool(env.DATABASE_URL);
    onClose(() => pool.end());
    await migrate(pool, migrations);
    const store = new SocialStore(pool);

    const kafka = createKafka({ clientId: 'social', brokers: env.KAFKA_BROKERS, logger });
    const relay = startOutboxRelay({
      pool,
      kafka,
      logger,
      topics: PUBLISHED_TOPICS,
      pollIntervalMs: env.OUTBOX_POLL_MS,
    });
    onClose(() => relay.stop());
    const consumers = startConsumers({
      kafka,
      pool,
      logger,
      groupIds: { users: groupId(env, CONSUMERS.users), trips: groupId(env, CONSUMERS.trips) },
      ...options,
    });
    onClose(() => consumers.users.stop());
    onClose(() => consumers.trips.stop());

    const app = buildApp({ logger, pool, store, identityProofSecret, relay });
    return { app, logger, pool, store, relay, consumers };
  });
}

export type SocialService = Awaited<ReturnType<typeof createService>>;
