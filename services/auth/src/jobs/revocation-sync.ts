import type { Redis } from 'ioredis';
import { startPeriodic, type Logger, type Periodic } from '@wayfarer/service-kit';
import type { RevocationStore } from '../store/revocations';

/**
 * Keeps Redis's revocations in step with PostgreSQL: a full sync whenever the Redis client
 * becomes ready (first connect and every reconnect), and every `intervalMs` a sync of what
 * Redis may lack (plus pruning of expired rows). A full sync that fails (Redis gone again,
 * PostgreSQL down) is retried by the next pass. Passes never overlap (`startPeriodic`); a
 * (re)connect during a partial pass gets its full sync right after it.
 */
export function startRevocationSync(opts: {
  store: RevocationStore;
  redis: Redis;
  logger: Logger;
  intervalMs: number;
}): Periodic<void> {
  const { store, redis, logger } = opts;
  let needFull = true;
  let stopped = false;

  const job = startPeriodic(
    {
      name: 'revocation-sync',
      intervalMs: opts.intervalMs,
      runAtStart: false,
      run: async () => {
        const full = needFull;
        needFull = false;
        try {
          const written = await store.sync({ all: full });
          if (written > 0 || full) logger.info({ written, full }, 'revocations synced to Redis');
        } catch (err) {
          if (full) needFull = true;
          throw err;
        }
      },
    },
    logger,
  );

  const fullSync = async () => {
    // the pass this joins may have started before the (re)connect: then one more, a full one
    for (let pass = 0; pass < 2 && needFull && !stopped; pass++) {
      await job.runNow().catch((err: unknown) => {
        logger.warn({ err }, 'full revocation sync failed; retrying on the next pass');
      });
    }
  };
  const onReady = () => {
    needFull = true;
    void fullSync();
  };
  redis.on('ready', onReady);
  if (redis.status === 'ready') void fullSync();

  return {
    runNow: job.runNow,
    async stop() {
      stopped = true;
      redis.off('ready', onReady);
      await job.stop();
    },
  };
}
