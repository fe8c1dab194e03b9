import { Redis } from 'ioredis';
import { createLogger, main, runService } from '@wayfarer/service-kit';
import { loadVerifyKey, publicKeyPem } from '@wayfarer/service-kit/keys';
import { buildApp } from './app';
import { loadGatewayConfig } from './config';

main('gateway', async () => {
  const config = loadGatewayConfig();
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const publicKey = publicKeyPem(loadVerifyKey(config));
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2, enableOfflineQueue: true });
  redis.on('error', (err) => logger.warn({ err: err.message }, 'redis error'));
  const app = await buildApp({ config, redis, logger, publicKeyPem: publicKey });
  await runService({
    app,
    port: config.PORT,
    host: config.HOST,
    logger,
    closers: [() => redis.quit()],
  });
  logger.info({ url: `http://${config.HOST}:${config.PORT}` }, 'gateway listening');
});
