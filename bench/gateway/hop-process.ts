/**
 * One process of `hop.bench.ts`, so that the CPU it reads is that process's alone:
 *
 * - `auth`: auth booted by its composition root and listening like its `main.ts`;
 * - `gateway`: the gateway booted like its `main.ts` (its Redis client, `buildApp`), logs at
 *   info as deployed (written to /dev/null by the parent);
 * - `bare`: a bare `@fastify/http-proxy` hop to auth, no session check, no logger: what the
 *   gateway's hop is held against. Clients send it the identity proof auth needs.
 *
 * Answers the parent over IPC: `{ ready, port }` once listening, then `cpu` with
 * `process.cpuUsage()`.
 */
import proxy from '@fastify/http-proxy';
import Fastify from 'fastify';
import {
  createLogger,
  loadConfig,
  loadIdentityProofSecret,
  serveService,
} from '@wayfarer/service-kit';
import { loadVerifyKey, publicKeyPem } from '@wayfarer/service-kit/keys';
import { testServiceEnv } from '@wayfarer/test-kit';
import { buildApp } from '../../gateway/src/app';
import { loadGatewayConfig } from '../../gateway/src/config';
import { connectRedis } from '../../gateway/src/redis';
import { AuthEnv } from '../../services/auth/src/config';
import { createService } from '../../services/auth/src/service';

if (!process.send) throw new Error('run by hop.bench.ts (with IPC)');
const role = process.env.ROLE;
const port = Number(process.env.PORT);

if (role === 'auth') {
  const env = loadConfig(
    AuthEnv,
    testServiceEnv({
      DATABASE_URL: process.env.DATABASE_URL!,
      SESSION_KEY_DIR: process.env.SESSION_KEY_DIR!,
      AVATAR_BUCKET: 'avatars-bench',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    }),
  );
  await serveService(await createService(env), env);
} else if (role === 'gateway') {
  const config = loadGatewayConfig({
    ...process.env,
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.GATEWAY_LOG_LEVEL ?? 'info',
  });
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const redis = connectRedis(config.REDIS_URL, logger);
  const app = await buildApp({
    config,
    redis,
    logger,
    publicKeyPem: publicKeyPem(loadVerifyKey(config)),
    identityProofSecret: loadIdentityProofSecret(config),
  });
  await app.listen({ port, host: '127.0.0.1' });
  // a normal exit, so that --cpu-prof writes its profile
  process.once('SIGTERM', () => void app.close().finally(() => process.exit(0)));
} else if (role === 'bare') {
  const app = Fastify();
  await app.register(proxy, {
    upstream: process.env.AUTH_URL!,
    prefix: '/api/userDetails',
    rewritePrefix: '/api/userDetails',
  });
  await app.listen({ port, host: '127.0.0.1' });
  process.once('SIGTERM', () => void app.close().finally(() => process.exit(0)));
} else {
  throw new Error(`unknown ROLE ${role}`);
}

process.on('message', (msg: { id: number; kind: 'cpu' }) => {
  if (msg.kind === 'cpu') process.send!({ id: msg.id, cpu: process.cpuUsage() });
});
process.send({ ready: true });
