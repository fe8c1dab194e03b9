import {
  composeService,
  createKafka,
  createLogger,
  groupId,
  loadIdentityProofSecret,
} from '@wayfarer/service-kit';
import { connectMongo, startMongoOutboxRelay } from '@wayfarer/service-kit/mongo';
import { buildApp } from './app';
import type { JournalEnv } from './config';
import { CONSUMERS, startProjections, type ProjectionOptions } from './events/consumers';
import { PUBLISHED_TOPICS } from './events/outbox';
import { createStores, initStores } from './store';

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
    const logger = createLogger('journal', env.LOG_LEVEL);
    const identityProofSecret = loadIdentityProofSecret(env);

    const { client, db } = await connectMongo(env.MONGO_URL, env.MONGO_DB);
    onClose(() => client.close());
    const stores = createStores(db);
    await initStores(stores);

    const kafka = createKafka({ clientId: 'journal', brokers: env.KAFKA_BROKERS, logger });
    const relay = startMongoOutboxRelay({
      collections: [stores.entries.collection],
      kafka,
      logger,
      topics: PUBLISHED_TOPICS,
      pollIntervalMs: env.OUTBOX_POLL_MS,
    });
    onClose(() => relay.stop());
    const projections = startProjections({
      kafka,
      db,
      stores,
      logger,
      groupIds: {
        trips: groupId(env, CONSUMERS.trips),
        friendships: groupId(env, CONSUMERS.friendships),
      },
      ...options,
    });
    onClose(() => projections.stop());

    const app = buildApp({ logger, db, stores, relay, identityProofSecret });
    return { app, logger, db, stores, relay, projections };
  });
}

export type JournalService = Awaited<ReturnType<typeof createService>>;
