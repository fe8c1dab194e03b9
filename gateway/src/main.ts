import {
  createLogger,
  loadIdentityProofSecret,
  main,
  runService,
  startMetricsServer,
} from '@wayfarer/service-kit';
import { loadVerifyKey, publicKeyPem } from '@wayfarer/service-kit/keys';
import { buildApp } from './app';
import { loadGatewayConfig, metricsPortOf } from './config';
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
  // Prometheus's /metrics, on a port of its own that is never public
  const metrics = await startMetricsServer({
    port: metricsPortOf(config),
    host: config.METRICS_HOST,
    logger,
  });
  await runService({
    app,
    port: config.PORT,
    host: config.HOST,
    logger,
    closers: [() => redis.quit().catch(() => redis.disconnect()), () => metrics.close()],
  });
  logger.info({ url: `http://${config.HOST}:${config.PORT}` }, 'gateway listening');
});
