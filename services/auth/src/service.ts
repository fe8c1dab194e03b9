import { composeService, groupId } from '@wayfarer/service-kit';
import { loadSigningKey } from '@wayfarer/service-kit/keys';
import { openPgService } from '@wayfarer/service-kit/pg';
import { ObjectStore, s3Connection, SpoolArea } from '@wayfarer/storage';
import { buildApp } from './app';
import type { AuthEnv } from './config';
import { ERASURE_CONSUMER, startErasureConsumer } from './events/erasure';
import { PUBLISHED_TOPICS } from './events/outbox';
import { migrations } from './store/migrations';
import { connectRedis } from './store/redis';
import { RevocationStore, startRevocationSync } from './store/revocations';

/**
 * How often the spool is swept of what dead instances left; and how long another instance's
 * directory may stay untouched before it counts as dead (a live instance touches its own at
 * every sweep). On this host a dead instance's directory goes at once, by its pid.
 */
export const SPOOL_SWEEP_MS = 10 * 60_000;
export const SPOOL_STALE_MS = 6 * SPOOL_SWEEP_MS;

export interface AuthServiceOptions {
  /** How the login slowdown waits (default a real timer): tests record the delays instead. */
  sleep?: (ms: number) => Promise<void>;
  /** Tests only: the erasure consumer's new group starts at the topic's end (service-kit). */
  skipHistory?: boolean;
}

/**
 * auth's composition root: the whole running service from its env (PostgreSQL pool with
 * migrations applied and the outbox relay, Redis, the revocation sync, the avatars bucket, the
 * upload spool (swept on start and every SPOOL_SWEEP_MS), the app). `main.ts` listens with it;
 * the integration tests boot it with a test env. `close()` closes the app, the spool's sweeps,
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
    let sweeping: Promise<void> = Promise.resolve();
    const sweepSpool = () =>
      (sweeping = spool.sweep().then(
        () => undefined,
        (err: unknown) => logger.warn({ err }, 'could not sweep the upload spool; trying later'),
      ));
    await sweepSpool();
    const sweeps = setInterval(() => void sweepSpool(), SPOOL_SWEEP_MS).unref();
    onClose(async () => {
      clearInterval(sweeps);
      await sweeping; // before the spool's directory is removed
    });

    // a closed account's avatars, removed for sure (user.deleted, retried while MinIO is down)
    const erasure = startErasureConsumer({
      kafka,
      logger,
      avatars,
      groupId: groupId(env, ERASURE_CONSUMER),
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
