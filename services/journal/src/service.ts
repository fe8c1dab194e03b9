import { composeService, connectFences, createLogger, groupIds } from '@wayfarer/service-kit';
import { openMongoService } from '@wayfarer/service-kit/mongo';
import { buildApp } from './app';
import type { JournalEnv } from './config';
import { CONSUMERS, startProjections, type ProjectionOptions } from './events/consumers';
import { PUBLISHED_TOPICS } from './events/outbox';
import { openStores } from './store';

/** What a caller may set besides the env (tests: consumers that skip earlier history). */
export type JournalServiceOptions = Pick<ProjectionOptions, 'skipHistory' | 'maxRetryDelayMs'>;

/**
 * journal's composition root: the whole running service from its env (MongoDB stores with
 * their indexes, the outbox relay, the trips and friendships projections, the app). `main.ts`
 * listens with it; the integration tests boot it with a test env. `close()` closes the app,
 * the projections, the relay, then the MongoDB client.
 */
export async function createService(env: JournalEnv, options: JournalServiceOptions = {}) {
  return composeService(async (onClose) => {
    // access fences (Redis): friends' reads refuse what social or auth ended before their
    // events arrive
    const { fences, close: closeFences } = await connectFences(
      env.REDIS_URL,
      createLogger('journal', env.LOG_LEVEL),
    );
    onClose(closeFences);
    const { logger, identityProofSecret, db, stores, kafka, relay } = await openMongoService({
      name: 'journal',
      env,
      stores: (db) => openStores(db, fences),
      outbox: { topics: PUBLISHED_TOPICS, collections: (s) => [s.entries.collection] },
      // POST /api/journal's Idempotency-Keys, kept in the entries (unique index; pruned after 24 h)
      idempotent: (s) => [s.entries.idempotency],
      onClose,
    });
    const projections = startProjections({
      kafka,
      db,
      stores,
      logger,
      groupIds: groupIds(env, CONSUMERS),
      ...options,
    });
    onClose(() => projections.stop());

    const app = buildApp({ logger, db, stores, relay, identityProofSecret });
    return { app, logger, db, stores, relay, projections };
  });
}

export type JournalService = Awaited<ReturnType<typeof createService>>;
