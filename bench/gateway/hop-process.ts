/**
 * One process of `hop.bench.ts`, so that the CPU it reads is that process's alone:
 *
 * - `auth`: auth booted by its composition root and listening like its `main.ts`;
 * - `gateway`: the gateway booted like its `main.ts` (its Redis client, `buildApp`), logs at
 *   info as deployed (written to /dev/null by the parent);
 * - `bare`: a bare `@fastify/http-proxy` hop to auth, no session check, no logger: what the
 *   gateway's hop is held against. Clients send it the identity proof auth needs.
 * - `raw`: the least a Node proxy can be: `node:http` and an undici Pool (`RAW_PIPELINING`: its
 *   `pipelining`, default 1), headers copied, body
 *   piped, no Fastify, no checks (how near a Node hop can come to calling auth directly).
 *
 * Answers the parent over IPC: `{ ready, port }` once listening, then `cpu` with
 * `process.cpuUsage()`.
 */
import { createServer } from 'node:http';
import proxy from '@fastify/http-proxy';
import Fastify from 'fastify';
import { Pool } from 'undici';
import {
  createLogger,
  loadConfig,
  loadIdentityProofSecret,
  serveService,
} from '@wayfarer/service-kit';
import { loadVerifyKey, publicKeyPem } from '@wayfarer/service-kit/keys';
import { testServiceEnv } from '@wayfarer/test-kit';
import { buildApp, connectRedis, loadGatewayConfig } from '@wayfarer/gateway';
import { AuthEnv, createService } from '@wayfarer/auth';

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
} else if (role === 'raw') {
  const pool = new Pool(process.env.AUTH_URL!, {
    connections: 128,
    pipelining: Number(process.env.RAW_PIPELINING ?? 1),
  });
  const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host']);
  const server = createServer((req, res) => {
    const headers: Record<string, string | string[]> = {};
    for (const name in req.headers) {
      if (!hopByHop.has(name)) headers[name] = req.headers[name]!;
    }
    pool
      .request({
        path: req.url!,
        method: req.method as 'GET',
        headers,
        body: req.method === 'GET' || req.method === 'HEAD' ? null : req,
      })
      .then(
        (answer) => {
          const out: Record<string, string | string[]> = {};
          for (const name in answer.headers) {
            if (!hopByHop.has(name)) out[name] = answer.headers[name]!;
          }
          res.writeHead(answer.statusCode, out);
          answer.body.pipe(res);
        },
        () => {
          res.statusCode = 502;
          res.end();
        },
      );
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
} else {
  throw new Error(`unknown ROLE ${role}`);
}

process.on('message', (msg: { id: number; kind: 'cpu' }) => {
  if (msg.kind === 'cpu') process.send!({ id: msg.id, cpu: process.cpuUsage() });
});
process.send({ ready: true });
