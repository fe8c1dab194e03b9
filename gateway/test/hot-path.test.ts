import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SESSION_COOKIE } from '@wayfarer/contracts';
import { metricsRegistry } from '@wayfarer/service-kit';
import { testInfra } from '@wayfarer/test-kit';
import { buildApp } from '../src/app';
import { revokeAsAuthDoes } from './revoke';
import { captureLogs, getBytes, testSessions, upstreamsAt, testConfig } from './wire';

/**
 * The hot path (`hot-path.ts`) answers exactly as the Fastify path does: the same
 * requests go to two gateways, one with the hot path and one without (HOT_PATH=off), both on
 * real Redis and the same upstream service (a small Fastify app answering each shape a service
 * can give), and every status, header (but Date) and body byte is compared, with what the
 * service saw, the request metric's labels and the access-log line. Each case also says
 * whether Fastify saw the request at the hot gateway: the common answers are the hot path's
 * own, everything else is Fastify's.
 */

const BIG_JSON = JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ i, x: 'y' })) });
const PHOTO = randomBytes(200 * 1024);

async function startService() {
  const seen: IncomingHttpHeaders[] = [];
  const app = Fastify();
  app.addHook('onRequest', (request, reply, done) => {
    seen.push(request.headers);
    // as service-kit's createHttpApp: the gateway's request id on the answer
    if (request.headers['x-request-id'])
      reply.header('x-request-id', request.headers['x-request-id']);
    done();
  });
  app.all('/*', (request, reply) => {
    const shape = (request.query as { shape?: string }).shape ?? 'json';
    switch (shape) {
      case 'big':
        return reply.header('content-type', 'application/json; charset=utf-8').send(BIG_JSON);
      case 'html':
        return reply.header('content-type', 'text/html').send('<p>hi</p>');
      case 'cached':
        return reply.header('cache-control', 'private, max-age=60').send({ ok: 1 });
      case 'cookies':
        return reply
          .header('set-cookie', ['a=1; Path=/', 'b=2; Path=/'])
          .header('vary', 'origin')
          .header('connection', 'x-private')
          .header('x-private', 'for the gateway only')
          .send({ ok: 2 });
      case 'empty':
        return reply.code(204).send();
      case 'notModified':
        return reply.code(304).send();
      case 'zero':
        return reply.header('content-type', 'text/plain').send('');
      case 'octets':
        return reply.send(Buffer.from('raw bytes'));
      case 'untyped':
        reply.hijack();
        reply.raw.writeHead(200, { 'content-length': '3' }).end('abc');
        return;
      case 'missing':
        return reply.code(404).send({ error: 'not_found', message: 'No such thing.' });
      case 'broken':
        return reply.code(500).send({ error: 'internal', message: 'Broke.' });
      case 'photo':
        return reply.header('content-type', 'image/jpeg').send(PHOTO);
      case 'chunked':
        return reply
          .header('content-type', 'application/json')
          .send(Readable.from([Buffer.from('{"a":'), Buffer.from('1}')]));
      default:
        return { url: request.url, user: request.headers['x-user-id'] ?? null };
    }
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url, seen };
}

const withoutDate = (headers: IncomingHttpHeaders) => {
  const { date: _date, ...rest } = headers;
  return rest;
};

const withoutProof = (headers: IncomingHttpHeaders) => {
  const { 'x-identity-proof': _proof, ...rest } = headers;
  return rest;
};

/** The request's series in http_request_duration_seconds: its count. */
async function requestCount(labels: Record<string, string>): Promise<number> {
  const metric = metricsRegistry.getSingleMetric('http_request_duration_seconds');
  const { values } = await metric!.get();
  const found = values.find(
    (v) =>
      (v as { metricName?: string }).metricName === 'http_request_duration_seconds_count' &&
      Object.entries(labels).every(([k, val]) => v.labels[k] === val) &&
      Object.keys(v.labels).length === Object.keys(labels).length,
  );
  return found?.value ?? 0;
}

describe('gateway: the hot path answers as the Fastify path does', () => {
  const sessions = testSessions();
  const hotLogs = captureLogs();
  const slowLogs = captureLogs();
  let service: Awaited<ReturnType<typeof startService>>;
  let redis: Redis;
  const gateways: FastifyInstance[] = [];
  const ports = { hot: 0, fastify: 0 };
  /** Requests Fastify saw at the hot gateway. */
  let seenByFastify = 0;
  const cookie = sessions.cookie('user-hot');

  beforeAll(async () => {
    service = await startService();
    redis = new Redis(testInfra().redisUrl);
    for (const hotPath of ['on', 'off'] as const) {
      const gateway = await buildApp({
        config: testConfig({
          ...upstreamsAt(service.url),
          PLACES_URL: 'http://127.0.0.1:1', // nothing listens there: a service that is down
          UPSTREAM_TIMEOUT_MS: '2000',
          RATE_LIMIT_PER_MINUTE: '100000',
          HOT_PATH: hotPath,
        }),
        redis,
        logger: (hotPath === 'on' ? hotLogs : slowLogs).logger,
        publicKeyPem: sessions.publicKeyPem,
        identityProofSecret: Buffer.alloc(32, 7),
      });
      if (hotPath === 'on') {
        // every request Fastify handles, once (a request refused in an earlier onRequest hook
        // is seen when it has been answered)
        const seen = new WeakSet<object>();
        const saw = (raw: object) => {
          if (!seen.has(raw)) seenByFastify++;
          seen.add(raw);
        };
        gateway.addHook('onRequest', (request, _reply, done) => {
          saw(request.raw);
          done();
        });
        gateway.addHook('onResponse', (request, _reply, done) => {
          saw(request.raw);
          done();
        });
      }
      await gateway.listen({ port: 0, host: '127.0.0.1' });
      ports[hotPath === 'on' ? 'hot' : 'fastify'] = (gateway.server.address() as AddressInfo).port;
      gateways.push(gateway);
    }
    // the revocation copy is live once the hot path takes a signed-in GET
    await vi.waitFor(
      async () => {
        const before = seenByFastify;
        await getBytes(ports.hot, '/api/userDetails', { cookie });
        if (seenByFastify !== before) throw new Error('the revocation copy is not live yet');
      },
      { timeout: 10_000, interval: 50 },
    );
  });

  afterAll(async () => {
    for (const gateway of gateways) await gateway.close();
    await service?.app.close();
    await redis?.quit();
  });

  /** Sends the request to both gateways; returns both answers and whether Fastify saw it. */
  async function both(path: string, headers: Record<string, string> = {}, method = 'GET') {
    const sent = { 'x-request-id': `hot-${randomBytes(6).toString('hex')}`, ...headers };
    const before = seenByFastify;
    const hot = await getBytes(ports.hot, path, sent, method);
    const byFastify = seenByFastify > before;
    const seenSince = () => seenByFastify > before;
    const upstreamHot = service.seen.at(-1);
    const plain = await getBytes(ports.fastify, path, sent, method);
    const upstreamPlain = service.seen.at(-1);
    return { hot, plain, byFastify, seenSince, upstreamHot, upstreamPlain };
  }

  const cases: { name: string; path: string; headers?: Record<string, string>; hot: boolean }[] = [
    { name: 'a small JSON answer', path: '/api/userDetails', hot: true },
    { name: 'a query string', path: '/api/journal/entries?limit=5&x=%C3%A9', hot: true },
    {
      name: 'a large JSON answer, no Accept-Encoding',
      path: '/api/userDetails?shape=big',
      hot: true,
    },
    {
      name: 'a large JSON answer, brotli accepted (compressed by Fastify)',
      path: '/api/userDetails?shape=big',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
      hot: false,
    },
    {
      name: 'a small JSON answer, gzip accepted (below the threshold)',
      path: '/api/userDetails',
      headers: { 'accept-encoding': 'gzip' },
      hot: true,
    },
    { name: 'HTML (the CSP)', path: '/api/userDetails?shape=html', hot: true },
    { name: "the service's own Cache-Control", path: '/api/userDetails?shape=cached', hot: true },
    {
      name: 'Set-Cookie twice, Vary, Connection-listed',
      path: '/api/userDetails?shape=cookies',
      hot: true,
    },
    { name: 'a 204', path: '/api/userDetails?shape=empty', hot: false },
    { name: 'a 304', path: '/api/userDetails?shape=notModified', hot: false },
    { name: 'an empty 200', path: '/api/userDetails?shape=zero', hot: false },
    { name: 'bytes', path: '/api/userDetails?shape=octets', hot: true },
    { name: 'no Content-Type', path: '/api/userDetails?shape=untyped', hot: false },
    { name: "the service's 404", path: '/api/userDetails?shape=missing', hot: false },
    { name: "the service's 500", path: '/api/userDetails?shape=broken', hot: false },
    { name: 'a streamed photo', path: '/api/journal/photo?shape=photo', hot: false },
    { name: 'a chunked answer', path: '/api/journal/x?shape=chunked', hot: false },
    { name: 'a service that is down (503)', path: '/api/places/search?q=x', hot: false },
    { name: 'a non-canonical path', path: '/api//journal/./%65ntries', hot: true },
    { name: 'a trailing slash on a prefix', path: '/api/userDetails/', hot: false },
    { name: 'an encoded slash (400)', path: '/api/journal%2Fx', hot: false },
    { name: 'chat (its instance choice)', path: '/api/conversation/1', hot: false },
    { name: 'an unknown /api route', path: '/api/nothing-here', hot: false },
    { name: 'the frontend', path: '/', hot: false },
  ];

  for (const c of cases) {
    it(`${c.name}: ${c.hot ? 'hot path' : 'Fastify'}, the same answer`, async () => {
      const { hot, plain, byFastify, seenSince, upstreamHot, upstreamPlain } = await both(c.path, {
        cookie,
        ...c.headers,
      });
      if (c.hot) expect(byFastify).toBe(false);
      else await expect.poll(seenSince).toBe(true);
      expect(hot.status).toBe(plain.status);
      expect(withoutDate(hot.headers)).toEqual(withoutDate(plain.headers));
      expect(hot.body.equals(plain.body)).toBe(true);
      // what the service saw: the same request (the proof minted by each gateway's own minter)
      if (c.hot) expect(withoutProof(upstreamHot!)).toEqual(withoutProof(upstreamPlain!));
    });
  }

  it('requests with no session, a bad one, a revoked one, HEAD or a body: Fastify, the same answer', async () => {
    const revoked = sessions.cookie('user-revoked');
    const jti = JSON.parse(
      Buffer.from(revoked.split('=')[1]!.split('.')[1]!, 'base64url').toString(),
    ).jti as string;
    await revokeAsAuthDoes(redis, jti);
    for (const [headers, method] of [
      [{}, 'GET'],
      [{ cookie: `${SESSION_COOKIE}=not-a-token` }, 'GET'],
      [{ cookie: revoked }, 'GET'],
      [{ cookie }, 'HEAD'],
      [{ cookie, 'content-length': '0' }, 'GET'],
    ] as const) {
      const { hot, plain, seenSince } = await both('/api/userDetails', headers, method);
      await expect.poll(seenSince, { message: JSON.stringify(headers) }).toBe(true);
      expect(hot.status, JSON.stringify(headers)).toBe(plain.status);
      expect(withoutDate(hot.headers)).toEqual(withoutDate(plain.headers));
      expect(hot.body.equals(plain.body)).toBe(true);
    }
  });

  it('a request without an id gets a new one, sent upstream and on the answer', async () => {
    const before = seenByFastify;
    const res = await getBytes(ports.hot, '/api/userDetails', { cookie });
    expect(seenByFastify).toBe(before);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(service.seen.at(-1)!['x-request-id']).toBe(res.headers['x-request-id']);
    expect(JSON.parse(res.body.toString())).toMatchObject({ user: 'user-hot' });
  });

  it('counts the request metric with the same labels and writes the same access-log line', async () => {
    const labels = {
      method: 'GET',
      route: '/api/userDetails',
      status_code: '200',
      upstream: 'auth',
    };
    const before = await requestCount(labels);
    const hotLines = hotLogs.lines.length;
    const plainLines = slowLogs.lines.length;
    const { byFastify } = await both('/api/userDetails', { cookie });
    expect(byFastify).toBe(false);
    // one for each gateway: a label of the hot path's own would make a series of its own
    await expect.poll(() => requestCount(labels)).toBe(before + 2);
    const lineOf = (lines: string[], from: number) => {
      const line = lines.slice(from).find((l) => l.includes('"msg":"request"'));
      const { time: _t, ms, upstreamMs, ...rest } = JSON.parse(line!) as Record<string, unknown>;
      expect(typeof ms).toBe('number');
      expect(typeof upstreamMs).toBe('number');
      return rest;
    };
    await expect.poll(() => slowLogs.lines.length).toBeGreaterThan(plainLines);
    expect(lineOf(hotLogs.lines, hotLines)).toEqual(lineOf(slowLogs.lines, plainLines));
  });
});
