import { createKafka, createLogger, loadConfig, main, runService } from '@wayfarer/service-kit';
import { connectMongo, FriendshipProjection } from '@wayfarer/service-kit/mongo';
import { buildApp } from './app';
import { TripsEnv } from './config';
import { startFriendshipConsumerInBackground } from './events/friendships';
import { startTripsRelay } from './events/outbox';
import { PhotoStore } from './store/photos';
import { TripsRepo } from './store/trips';

main('trips', async () => {
  const env = loadConfig(TripsEnv);
  const logger = createLogger('trips', env.LOG_LEVEL);

  const { client, db } = await connectMongo(env.MONGO_URL, env.MONGO_DB);
  const trips = new TripsRepo(db);
  await trips.init();
  const friendships = new FriendshipProjection(db);
  await friendships.init();
  const photos = PhotoStore.connect({
    endpoint: env.S3_ENDPOINT,
    accessKey: env.S3_ACCESS_KEY,
    secretKey: env.S3_SECRET_KEY,
    region: env.S3_REGION,
    bucket: env.PHOTO_BUCKET,
  });
  await photos.ensureBucket();

  const kafka = createKafka({ clientId: 'trips', brokers: env.KAFKA_BROKERS, logger });
  const relay = startTripsRelay({ trips, kafka, logger });
  const consumer = startFriendshipConsumerInBackground({
    kafka,
    db,
    projection: friendships,
    logger,
  });

  const app = buildApp({ logger, db, photos, friendships, relay });
  await runService({
    app,
    port: env.PORT,
    host: env.HOST,
    logger,
    closers: [() => consumer.stop(), () => relay.stop(), () => client.close()],
  });
});
