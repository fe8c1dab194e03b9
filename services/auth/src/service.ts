import { composeService, groupId } from '@wayfarer/service-kit';
import { loadSigningKey } from '@wayfarer/service-kit/keys';
import { openPgService } from '@wayfarer/service-kit/pg';
import { ObjectStore, s3Connection, SpoolArea } from '@wayfarer/storage';
import { buildApp } from './app';
import type { AuthEnv } from './config';
import { CONSUMERS, startAuthUserConsumer } from './events/consumers';
import { PUBLISHED_TOPICS } from './events/outbox';
import { startRevocationSync } from './jobs/revocation-sync';
import { SPOOL_STALE_MS, startSpoolSweep } from './jobs/spool-sweep';
import { migrations } from './store/migrations';
import { connectRedis } from './store/redis';
import { RevocationStore } from './store/revocations';

export interface AuthServiceOptions {
  /** How the login slowdown waits (default a real timer): tests record the delays instead. */
  sleep?: (ms: number) => Promise<void>;
  /** Tests only: the erasure consumer's new group starts at the topic's end (service-kit). */
  skipHistory?: boolean;
}

/**
 * auth's composition root: the whole running service from its env (PostgreSQL pool with
 * migrations applied and the outbox relay, Redis, the revocation sync, the avatars bucket, the
 * upload spool (swept on start and periodically: `jobs/`), the erasure consumer, the app). `main.ts` listens with it;
 * the integration tests boot it with a test env. `close()` closes the app, the erasure consumer, the spool's sweeps,
 * the spool, the revocation sync, Redis, the relay, then the pool.
 */
export async function createService(env: AuthEnv, options: AuthServiceOptions = {}) {
  return composeService(async (onClose) => {
    const signingKey = loadSigningKey(env);
    const { logger, identityProofSecret, pool, kafka, relay } = await openPgService({
      name: 'auth',
      env,
      migrations,
      topics: PUBLISHED_TOPICS,
      onClose,
    });
    const redis = connectRedis(env.REDIS_URL);
    // one warning per outage (the client retries every second), one note when it is back
    let redisDown = false;
    redis.on('error', (err: Error) => {
      if (!redisDown) logger.warn({ err }, 'Redis connection lost; reconnecting');
      redisDown = true;
    });
    redis.on('ready', () => {
      if (redisDown) logger.info('Redis connection back');
      redisDown = false;
    });
    onClose(async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
    // auth starts without Redis too (logout still records revocations; login answers 503);
    // the client keeps reconnecting.
    await redis.connect().catch((err: unknown) => {
      logger.warn({ err }, 'Redis is unreachable at start; retrying in the background');
    });
    // PostgreSQL's revocations re-written to Redis on every (re)connect and every tick.
    const revocationSync = startRevocationSync({
      store: new RevocationStore(pool, redis),
      redis,
      logger,
      intervalMs: env.REVOCATION_SYNC_MS,
    });
    onClose(() => revocationSync.stop());
    const avatars = ObjectStore.connect({ ...s3Connection(env), bucket: env.AVATAR_BUCKET });
    await avatars.ensureBucket();
    // registration pictures are spooled here; what a killed instance left goes now and later
    const spool = await SpoolArea.open({ root: env.SPOOL_DIR, staleAfterMs: SPOOL_STALE_MS });
    onClose(() => spool.close());
    const spoolSweep = await startSpoolSweep(spool, logger);
    onClose(() => spoolSweep.stop()); // before the spool's directory is removed

    // a closed account's avatars, removed for sure (user.deleted, retried while MinIO is down)
    const erasure = startAuthUserConsumer({
      kafka,
      logger,
      avatars,
      groupId: groupId(env, CONSUMERS.erasure),
      skipHistory: options.skipHistory,
    });
    onClose(() => erasure.stop());

    const app = buildApp({
      logger,
      pool,
      redis,
      avatars,
      spool,
      signingKey,
      identityProofSecret,
      relay,
      cookieSecure: env.COOKIE_SECURE,
      sleep: options.sleep,
    });
    return {
      app,
      logger,
      pool,
      redis,
      avatars,
      spool,
      relay,
      signingKey,
      revocationSync,
      erasure,
    };
  });
}

export type AuthService = Awaited<ReturnType<typeof createService>>;
