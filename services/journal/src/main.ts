import { createKafka, createLogger, loadConfig, main, runService } from '@wayfarer/service-kit';
import { connectMongo } from '@wayfarer/service-kit/mongo';
import { buildApp } from './app';
import { JournalEnv } from './config';
import { startProjections } from './events/consumers';
import { startJournalRelay } from './events/relay';
import { createStores, initStores } from './store';

main('journal', async () => {
  const env = loadConfig(JournalEnv);
  const logger = createLogger('journal', env.LOG_LEVEL);

  const { client, db } = await connectMongo(env.MONGO_URL, env.MONGO_DB);
  const stores = createStores(db);
  await initStores(stores);

  const kafka = createKafka({ clientId: 'journal', brokers: env.KAFKA_BROKERS, logger });
  const relay = startJournalRelay({ entries: stores.entries, kafka, logger });
  const projections = startProjections({ kafka, db, stores, logger });

  const app = buildApp({ logger, db, stores, relay });
  await runService({
    app,
    port: env.PORT,
    host: env.HOST,
    logger,
    closers: [() => projections.stop(), () => relay.stop(), () => client.close()],
  });
});
