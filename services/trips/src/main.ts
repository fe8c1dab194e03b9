import {
  createKafka,
  createLogger,
  groupId,
  loadConfig,
  main,
  runService,
  startConsumerInBackground,
} from '@wayfarer/service-kit';
import {
  connectMongo,
  FriendshipProjection,
  startMongoOutboxRelay,
} from '@wayfarer/service-kit/mongo';
import { ObjectStore, s3Connection } from '@wayfarer/storage';
import { buildApp } from './app';
import { TripsEnv } from './config';
import { FRIENDSHIP_CONSUMER, friendshipConsumer } from './events/friendships';
import { PUBLISHED_TOPICS } from './events/outbox';
import { TripsRepo } from './store/trips';

main('trips', async () => {
  const env = loadConfig(TripsEnv);
  const logger = createLogger('trips', env.LOG_LEVEL);

  const { client, db } = await connectMongo(env.MONGO_URL, env.MONGO_DB);
  const trips = new TripsRepo(db);
  await trips.init();
  const friendships = new FriendshipProjection(db);
  await friendships.init();
  const photos = ObjectStore.connect({ ...s3Connection(env), bucket: env.PHOTO_BUCKET });
  await photos.ensureBucket();

  const kafka = createKafka({ clientId: 'trips', brokers: env.KAFKA_BROKERS, logger });
  const relay = startMongoOutboxRelay({
    collections: [trips.collection],
    kafka,
    logger,
    topics: PUBLISHED_TOPICS,
  });
  const consumer = startConsumerInBackground(
    friendshipConsumer({
      kafka,
      db,
      projection: friendships,
      logger,
      groupId: groupId(env, FRIENDSHIP_CONSUMER),
    }),
  );

  const app = buildApp({ logger, db, photos, friendships, relay });
  await runService({
    app,
    port: env.PORT,
    host: env.HOST,
    logger,
    closers: [() => consumer.stop(), () => relay.stop(), () => client.close()],
  });
});
