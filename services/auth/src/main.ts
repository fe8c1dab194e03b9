import { createKafka, createLogger, loadConfig, main, runService } from '@wayfarer/service-kit';
import { loadSigningKey } from '@wayfarer/service-kit/keys';
import { createPgPool, migrate, startOutboxRelay } from '@wayfarer/service-kit/pg';
import { ObjectStore, s3Connection } from '@wayfarer/storage';
import { buildApp } from './app';
import { AuthEnv } from './config';
import { PUBLISHED_TOPICS } from './events/outbox';
import { migrations } from './store/migrations';
import { connectRedis } from './store/redis';

main('auth', async () => {
  const env = loadConfig(AuthEnv);
  const logger = createLogger('auth', env.LOG_LEVEL);
  const signingKey = loadSigningKey(env);

  const pool = createPgPool(env.DATABASE_URL);
  await migrate(pool, migrations);
  const redis = connectRedis(env.REDIS_URL);
  const avatars = ObjectStore.connect({ ...s3Connection(env), bucket: env.AVATAR_BUCKET });
  await avatars.ensureBucket();

  const kafka = createKafka({ clientId: 'auth', brokers: env.KAFKA_BROKERS, logger });
  const relay = startOutboxRelay({ pool, kafka, logger, topics: PUBLISHED_TOPICS });

  const app = buildApp({
    logger,
    pool,
    redis,
    avatars,
    signingKey,
    relay,
    cookieSecure: env.COOKIE_SECURE,
  });
  await runService({
    app,
    port: env.PORT,
    host: env.HOST,
    logger,
    closers: [() => relay.stop(), () => redis.quit(), () => pool.end()],
  });
});
