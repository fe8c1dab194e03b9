import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect } from 'vitest';
import { testInfra } from '@wayfarer/test-kit';
import { buildApp } from '../src/app';
import { captureLogs, clientIp, send, testSessions, upstreamsAt, testConfig } from './wire';

/**
 * Request bodies on the wire: a real gateway on a port, real Redis, and real upstream
 * services on ports (small Fastify apps), raw `node:http`, fetch and curl clients:
 *
 * - `echo` reads every body whole and records the requests it started and answered;
 * - `early` (trips) answers 400 as soon as the first bytes of a body are in and closes the
 *   connection without reading the rest, as a service refusing a file by its head does (storage's
 *   `readImageForm`: `Connection: close`) when it does not drain the body;
 * - `cut` (places) cuts the connection after the first bytes without answering (a service dying
 *   mid-body).
 *
 * Whatever the client or the service does, the gateway answers once, the client reads the
 * answer, and the process lives (an unhandled 'error' would fail the run).
 */

export const NOT_AN_IMAGE = 'Photo 1 of Lisbon is not an image: use a PNG, JPEG, GIF or WebP file.';

/**
 * The upstream service every route goes to: it reads every body whole and echoes its size,
 * records the requests it started, answered and saw end; except `POST /api/trips`, which answers
 * 400 as soon as the first bytes of a body are in and closes the connection without reading the
 * rest, as a service refusing a file by its head does (storage's `readImageForm`: `Connection:
 * close`) when it does not drain the body, and `POST /api/places/search`, which cuts the
 * connection after the first bytes without answering (a service dying mid-body).
 */
async function startService() {
  const started: string[] = [];
  const answered: string[] = [];
  const ended: string[] = [];
  const app = Fastify({ bodyLimit: 1024 * 1024 * 1024 }); // only the gateway's caps under test
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
  app.addHook('onRequest', (request, _reply, done) => {
    started.push(request.url);
    request.raw.once('close', () => ended.push(request.url));
    done();
  });
  app.post('/api/trips', (request, reply) => {
    const body = request.body as Readable;
    body.once('data', () => {
      body.pause();
      void reply
        .code(400)
        .header('connection', 'close')
        .send({ error: 'bad_request', message: NOT_AN_IMAGE });
    });
  });
  app.post('/api/places/search', (request, reply) => {
    reply.hijack();
    (request.body as Readable).once('data', () => request.raw.socket.destroy());
  });
  app.all('/*', async (request) => {
    let bytes = 0;
    for await (const chunk of (request.body as Readable | undefined) ?? []) {
      bytes += (chunk as Buffer).length;
    }
    answered.push(request.url);
    return { url: request.url, bytes };
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url, started, answered, ended };
}

export const capMessage = (maxBytes: number) => new RegExp(`at most .*\\(${maxBytes} bytes\\)`);

/** A gateway on a port in front of `startService` for the tests of a file (hooks registered). */
export function bodiesGateway() {
  const sessions = testSessions();
  const cookie = () => sessions.cookie();
  const logs = captureLogs();
  let service: Awaited<ReturnType<typeof startService>>;
  let redis: Redis;
  let gateway: FastifyInstance;
  let port: number;
  let base: string;

  beforeAll(async () => {
    service = await startService();
    redis = new Redis(testInfra().redisUrl);
    gateway = await buildApp({
      config: testConfig({
        TRUST_PROXY: 'true', // each test its own client address (X-Forwarded-For)
        ...upstreamsAt(service.url),
      }),
      redis,
      logger: logs.logger,
      publicKeyPem: sessions.publicKeyPem,
      identityProofSecret: randomBytes(32),
    });
    base = await gateway.listen({ port: 0, host: '127.0.0.1' });
    port = (gateway.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await gateway?.close();
    await service?.app.close();
    await redis?.quit();
  });

  const headers = (extra: Record<string, string | number> = {}) => ({
    cookie: cookie(),
    'x-forwarded-for': clientIp(),
    'content-type': 'application/json',
    ...extra,
  });

  /** The gateway still answers (and no error was logged since `firstLog`). */
  const gatewayLives = async (firstLog: number) => {
    const res = await send(port, { path: '/api/journal/alive', headers: headers() });
    expect(res.status).toBe(200);
    expect(logs.errorsSince(firstLog)).toEqual([]);
  };

  return {
    cookie,
    logs,
    headers,
    gatewayLives,
    /** What beforeAll started: the service, the gateway, its port and base URL. */
    started: () => ({ service, gateway, port, base }),
  };
}
