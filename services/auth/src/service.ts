import { composeService, createKafka, createLogger } from '@wayfarer/service-kit';
import { loadSigningKey } from '@wayfarer/service-kit/keys';
import { createPgPool, migrate, startOutboxRelay } from '@wayfarer/service-kit/pg';
import { ObjectStore, s3Connection } from '@wayfarer/storage';
import { buildApp } from './app';
import type { AuthEnv } from './config';
import { PUBLISHED_TOPICS } from './events/outbox';
import { migrations } from './store/migrations';
import { connectRedis } from './store/redis';

/**
 * auth's composition root: the whole running service from its env (PostgreSQL pool with
 * migrations applied, Redis, the avatars bucket, the outbox relay, the app). `main.ts` listens
 * with it; the integration tests boot it with a test env. `close()` closes the app, the relay,
 * Redis, then the pool.
 */
export async function createService(env: AuthEnv) {
  return composeService(async (onClose) => {
    const logger = createLogger('auth', env.LOG_LEVEL);
    const signingKey = loadSigningKey(env);

    const pool = createPgPool(env.DATABASE_URL);
    onClose(() => pool.end());
    await migrate(pool, migrations);
    const redis = connectRedis(env.REDIS_URL);
    onClose(() => redis.quit());
    const avatars = ObjectStore.connect({ ...s3Connection(env), bucket: env.AVATAR_BUCKET });
    await avatars.ensureBucket();

    const kafka = createKafka({ clientId: 'auth', brokers: env.KAFKA_BROKERS, logger });
    const relay = startOutboxRelay({
      pool,
      kafka,
      logger,
      topics: PUBLISHED_TOPICS,
      pollIntervalMs: env.OUTBOX_POLL_MS,
    });
    onClose(() => relay.stop());

    const app = buildApp({
      logger,
      pool,
      redis,
      avatars,
      signingKey,
      relay,
      cookieSecure: env.COOKIE_SECURE,
    });
    return { app, logger, pool, redis, avatars, relay, signingKey };
  });
}

export type AuthService = Awaited<ReturnType<typeof createService>>;
