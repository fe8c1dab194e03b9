import { createLogger, loadIdentityProofSecret, main, runService } from '@wayfarer/service-kit';
import { loadVerifyKey, publicKeyPem } from '@wayfarer/service-kit/keys';
import { buildApp } from './app';
import { loadGatewayConfig } from './config';
import { connectRedis } from './redis';

main('gateway', async () => {
  const config = loadGatewayConfig();
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const publicKey = publicKeyPem(loadVerifyKey(config));
  const identityProofSecret = loadIdentityProofSecret(config);
  const redis = connectRedis(config.REDIS_URL, logger);
  const app = await buildApp({
    config,
    redis,
    logger,
    publicKeyPem: publicKey,
    identityProofSecret,
  });
  await runService({
    app,
    port: config.PORT,
    host: config.HOST,
    logger,
    closers: [() => redis.quit().catch(() => redis.disconnect())],
  });
  logger.info({ url: `http://${config.HOST}:${config.PORT}` }, 'gateway listening');
});
