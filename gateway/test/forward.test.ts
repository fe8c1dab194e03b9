import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testInfra } from '@wayfarer/test-kit';
import { buildApp } from '../src/app';
import { BUFFERED_ANSWER_MAX_BYTES } from '../src/forward';
import { captureLogs, clientIp, send, testSessions, upstreamsAt, testConfig } from './wire';

/**
 * GET and HEAD through the gateway's own forwarder (`forward.ts`) on the wire: a real
 * gateway on a port, real Redis, a real upstream service (a small Fastify app) and raw
 * `node:http` requests. Answers of every size arrive whole, HEAD stays HEAD, hop-by-hop headers
 * go neither way, and an upstream that is slow, gone or cut mid-answer gets the gateway's own
 * answer or a cut connection, never a hang.
 */

/** `n` random printable bytes (the wire helper reads answers as text). */
const text = (n: number) => Buffer.from(randomBytes(n).toString('base64').slice(0, n));
const BIG = text(3 * BUFFERED_ANSWER_MAX_BYTES + 123); // streamed (declared length)
const SMALL = text(BUFFERED_ANSWER_MAX_BYTES); // kept and sent at once

async function startService() {
  const seen: { method: string; url: string; headers: Record<string, unknown> }[] = [];
  const app = Fastify();
  app.addHook('onRequest', (request, _reply, done) => {
    seen.push({ method: request.method, url: request.url, headers: request.headers });
    done();
  });
  app.get('/api/photos/big', (_request, reply) =>
    reply.header('content-type', 'image/jpeg').send(BIG),
  );
  app.get('/api/photos/small', (_request, reply) =>
    reply.header('content-type', 'image/jpeg').send(SMALL),
  );
  // chunked: no declared length
  app.get('/api/photos/chunked', (_request, reply) =>
    reply.header('content-type', 'image/jpeg').send(Readable.from([BIG.subarray(0, 1000), BIG])),
  );
  app.get('/api/photos/headers', (_request, reply) =>
    reply
      .header('connection', 'x-private')
      .header('x-private', 'for the gateway only')
      .header('set-cookie', ['a=1; Path=/', 'b=2; Path=/'])
      .send({ ok: true }),
  );
  app.get('/api/photos/empty', (_request, reply) => reply.code(204).send());
  // answers nothing until the client leaves (the gateway's timeout is short)
  app.get('/api/photos/slow', (_request, reply) => {
    reply.hijack();
  });
  // cut mid-answer: headers and half the body, then the connection reset
  app.get('/api/photos/cut', (request, reply) => {
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': BIG.length });
    reply.raw.write(BIG.subarray(0, BIG.length / 2), () => request.raw.socket.destroy());
  });
  app.all('/*', async (request) => ({ method: request.method, url: request.url }));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url, seen };
}

describe('gateway: GET and HEAD through its own forwarder', () => {
  const sessions = testSessions();
  const logs = captureLogs();
  let service: Awaited<ReturnType<typeof startService>>;
  let redis: Redis;
  let gateway: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    service = await startService();
    redis = new Redis(testInfra().redisUrl);
    gateway = await buildApp({
      config: testConfig({
        TRUST_PROXY: 'true', // each test its own client address (X-Forwarded-For)
        ...upstreamsAt(service.url),
        PLACES_URL: 'http://127.0.0.1:1', // nothing listens there: a service that is down
        UPSTREAM_TIMEOUT_MS: '1000',
      }),
      redis,
      logger: logs.logger,
      publicKeyPem: sessions.publicKeyPem,
      identityProofSecret: randomBytes(32),
    });
    await gateway.listen({ port: 0, host: '127.0.0.1' });
    port = (gateway.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await gateway?.close();
    await service?.app.close();
    await redis?.quit();
  });

  const get = (path: string, extra: Record<string, string> = {}, method = 'GET') =>
    send(port, {
      method,
      path,
      headers: { cookie: sessions.cookie(), 'x-forwarded-for': clientIp(), ...extra },
    });

  it('delivers answers of every size whole: kept, streamed with a length, and chunked', async () => {
    for (const [path, expected] of [
      ['/api/photos/small', SMALL],
      ['/api/photos/big', BIG],
    ] as const) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers['content-length'], path).toBe(String(expected.length));
      expect(res.headers['content-type'], path).toBe('image/jpeg');
      expect(res.body === expected.toString(), path).toBe(true);
    }
    const chunked = await get('/api/photos/chunked');
    expect(chunked.status).toBe(200);
    expect(chunked.headers['transfer-encoding']).toBe('chunked');
    expect(chunked.body === Buffer.concat([BIG.subarray(0, 1000), BIG]).toString()).toBe(true);
  });

  it('forwards HEAD as HEAD, with the length the service declares and no body', async () => {
    const res = await get('/api/photos/big', {}, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe(String(BIG.length));
    expect(res.body).toBe('');
    expect(service.seen.at(-1)).toMatchObject({ method: 'HEAD', url: '/api/photos/big' });
  });

  it('passes a 204 on without a body', async () => {
    const res = await get('/api/photos/empty');
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
  });

  it('sends no hop-by-hop header either way, and keeps every Set-Cookie', async () => {
    const res = await get('/api/photos/headers?x=1', {
      connection: 'keep-alive, x-client-private',
      'x-client-private': 'for the gateway only',
      'keep-alive': 'timeout=5',
      te: 'trailers',
    });
    expect(res.status).toBe(200);
    const upstream = service.seen.at(-1)!;
    expect(upstream.url).toBe('/api/photos/headers?x=1');
    expect(upstream.headers).not.toHaveProperty('x-client-private');
    expect(upstream.headers).not.toHaveProperty('keep-alive');
    expect(upstream.headers).not.toHaveProperty('te');
    expect(upstream.headers['x-identity-proof']).toMatch(/^v1\./);
    expect(res.headers).not.toHaveProperty('x-private');
    expect(res.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    // the gateway's own headers are on the forwarded answer
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers 504 for a service that does not answer in time, 503 for one that is down', async () => {
    const slow = await get('/api/photos/slow');
    expect(slow.status).toBe(504);
    expect(JSON.parse(slow.body)).toMatchObject({ error: 'bad_gateway' });
    expect(JSON.parse(slow.body).message).toMatch(/trips service took too long/);
    const down = await get('/api/places/search?q=x');
    expect(down.status).toBe(503);
    expect(JSON.parse(down.body)).toMatchObject({ error: 'service_unavailable' });
    expect(JSON.parse(down.body).message).toMatch(/places service is unavailable/);
  });

  it('cuts the client off when the service cuts its answer midway, and lives', async () => {
    const firstLog = logs.lines.length;
    const res = await fetch(`http://127.0.0.1:${port}/api/photos/cut`, {
      headers: { cookie: sessions.cookie(), 'x-forwarded-for': clientIp() },
    });
    expect(res.status).toBe(200);
    // the declared length never arrives: the client sees its answer cut, not a short success
    await expect(res.arrayBuffer()).rejects.toThrow();
    const after = await get('/api/photos/small');
    expect(after.status).toBe(200);
    expect(logs.errorsSince(firstLog)).toEqual([]);
  });
});
