import {
  createKafka,
  createLogger,
  groupId,
  loadConfig,
  main,
  runService,
} from '@wayfarer/service-kit';
import { connectMongo, startMongoOutboxRelay } from '@wayfarer/service-kit/mongo';
import { buildApp } from './app';
import { JournalEnv } from './config';
import { CONSUMERS, startProjections } from './events/consumers';
import { PUBLISHED_TOPICS } from './events/outbox';
import { createStores, initStores } from './store';

main('journal', async () => {
  const env = loadConfig(JournalEnv);
  const logger = createLogger('journal', env.LOG_LEVEL);

  const { client, db } = await connectMongo(env.MONGO_URL, env.MONGO_DB);
  const stores = createStores(db);
  await initStores(stores);

  const kafka = createKafka({ clientId: 'journal', brokers: env.KAFKA_BROKERS, logger });
  const relay = startMongoOutboxRelay({
    collections: [stores.entries.collection],
    kafka,
    logger,
    topics: PUBLISHED_TOPICS,
  });
  const projections = startProjections({
    kafka,
    db,
    stores,
    logger,
    groupIds: {
      trips: groupId(env, CONSUMERS.trips),
      friendships: groupId(env, CONSUMERS.friendships),
    },
  });

  const app = buildApp({ logger, db, stores, relay });
  await runService({
    app,
    port: env.PORT,
    host: env.HOST,
    logger,
    closers: [() => projections.stop(), () => relay.stop(), () => client.close()],
  });
});
