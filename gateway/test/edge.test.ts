import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '@wayfarer/service-kit';
import { testInfra } from '@wayfarer/test-kit';
import { buildApp } from '../src/app';
import { GatewayEnv } from '../src/config';
import { captureLogs, clientIp, json, send, testSessions } from './wire';

/**
 * The edge protections on the wire: a real gateway listening on a port, real Redis, and a real
 * upstream service (a small Fastify app with a service's default 1 MiB body limit) that records
 * every request it answers. Raw `node:http` requests, so paths reach the gateway verbatim. (Bodies:
 * `bodies.test.ts`.)
 */

interface Upstream {
  app: FastifyInstance;
  url: string;
  /** Paths of the requests the upstream answered. */
  seen: string[];
}

async function startUpstream(): Promise<Upstream> {
  const seen: string[] = [];
  const app = Fastify(); // a service's default body limit (1 MiB), like the real ones
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  app.all('/*', async (request, reply) => {
    seen.push(request.url);
    // photos and avatars set their own cache policy: the gateway must keep it
    if (request.url.startsWith('/api/photos/'))
      reply.header('cache-control', 'private, max-age=60');
    return { method: request.method, url: request.url, headers: request.headers };
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url, seen };
}

describe('gateway edge protections on the wire', () => {
  const sessions = testSessions();
  const cookie = () => sessions.cookie();
  const logs = captureLogs();
  let upstream: Upstream;
  let redis: Redis;
  let gateway: FastifyInstance;
  let port: number;
  /** The same gateway but as the edge (no trusted proxy): forwarded headers mean nothing. */
  let edge: FastifyInstance;

  beforeAll(async () => {
    upstream = await startUpstream();
    redis = new Redis(testInfra().redisUrl);
    const env = {
      PORT: '8080',
      REDIS_URL: testInfra().redisUrl,
      AUTH_URL: upstream.url,
      TRIPS_URL: upstream.url,
      JOURNAL_URL: upstream.url,
      AUTH_RATE_LIMIT_PER_MINUTE: '3',
      // 127.0.0.1's /api count is shared in Redis with every stack on the machine (e2e, fuzz):
      // that limit is rate-limit.test.ts's, with addresses of its own
      RATE_LIMIT_PER_MINUTE: '1000000',
    };
    const deps = {
      redis,
      publicKeyPem: sessions.publicKeyPem,
      identityProofSecret: randomBytes(32),
    };
    // behind a trusted proxy: the client address and scheme come from X-Forwarded-*
    gateway = await buildApp({
      ...deps,
      config: GatewayEnv.parse({ ...env, TRUST_PROXY: 'true' }),
      logger: logs.logger,
    });
    await gateway.listen({ port: 0, host: '127.0.0.1' });
    port = (gateway.server.address() as AddressInfo).port;
    edge = await buildApp({
      ...deps,
      config: GatewayEnv.parse(env),
      logger: createLogger('gateway-test', 'silent'),
    });
    await edge.ready();
  });

  afterAll(async () => {
    await gateway?.close();
    await edge?.close();
    await upstream?.app.close();
    await redis?.quit();
  });

  describe('paths are normalised before routing and limits', () => {
    it('counts every spelling of login and register against the login limit, and forwards none past it', async () => {
      const ip = clientIp();
      const post = (path: string) =>
        send(port, {
          method: 'POST',
          path,
          headers: { 'x-forwarded-for': ip, 'content-type': 'application/json' },
          chunks: [Buffer.from('{}')],
        });
      const before = upstream.seen.length;
      for (let i = 0; i < 3; i++) expect((await post('/api/login')).status).toBe(200);
      expect((await post('/api/login')).status).toBe(429);
      expect(upstream.seen.length - before).toBe(3);
      for (const path of [
        '/api/%6cogin',
        '/api/%6Cogin',
        '/api//login',
        '/api/./login',
        '/api/login/',
        '/api/x/../login',
        '/%61pi/login?next=1',
        '/api/%72egister',
        '/api/register/',
      ]) {
        const res = await post(path);
        expect(res.status, path).toBe(429);
        expect(json(res).message, path).toMatch(/Too many requests/);
      }
      expect(upstream.seen.length - before).toBe(3);
    });

    it('forwards the canonical path upstream', async () => {
      const res = await send(port, {
        path: '/api//%6aournal/./d1?x=%6c',
        headers: { cookie: cookie(), 'x-forwarded-for': clientIp() },
      });
      expect(res.status).toBe(200);
      expect(json(res).url).toBe('/api/journal/d1?x=%6c');
    });

    it('refuses an encoded slash, NUL, a malformed escape or a climb above the root with 400', async () => {
      const before = upstream.seen.length;
      for (const path of [
        '/api/trips%2f..%2flogin',
        '/api/login%00',
        '/api/%zzogin',
        '/api/../..',
      ]) {
        const res = await send(port, { path, headers: { cookie: cookie() } });
        expect(res.status, path).toBe(400);
        expect(json(res).error, path).toBe('bad_request');
      }
      expect(upstream.seen.length).toBe(before);
    });

    it('treats another case or a ;parameter as another path: 404 at the gateway, never forwarded', async () => {
      const before = upstream.seen.length;
      for (const path of ['/API/LOGIN', '/api/LOGIN', '/api/login;x=1']) {
        const res = await send(port, { method: 'POST', path, headers: { cookie: cookie() } });
        expect(res.status, path).toBe(404);
      }
      expect(upstream.seen.length).toBe(before);
    });
  });

  describe('personal answers are never cached', () => {
    it('sets Cache-Control: no-store on /api answers, the gateway own errors included', async () => {
      const ip = clientIp();
      const answers = [
        await send(port, { path: '/api/protected', headers: { cookie: cookie() } }),
        await send(port, { path: '/api/protected' }), // 401 from the gateway
        await send(port, {
          method: 'POST',
          path: '/api/login',
          headers: { 'x-forwarded-for': ip, 'content-type': 'application/json' },
          chunks: [Buffer.from('{}')],
        }),
      ];
      expect(answers.map((res) => res.status)).toEqual([200, 401, 200]);
      for (const res of answers) expect(res.headers['cache-control']).toBe('no-store');
    });

    it('keeps the cache policy a service chose (photos)', async () => {
      const res = await send(port, { path: '/api/photos/p1', headers: { cookie: cookie() } });
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('private, max-age=60');
      const config = await send(port, { path: '/runtime-config.json' });
      expect(config.headers['cache-control']).toBe('no-cache');
    });
  });

  describe('Origin check on writes', () => {
    const logout = (app: FastifyInstance, headers: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: '/api/logout',
        headers: { host: 'wayfarer.example:8443', ...headers },
      });

    it('accepts exactly our own origin and refuses another scheme, port, host or null', async () => {
      expect((await logout(edge, { origin: 'http://wayfarer.example:8443' })).statusCode).toBe(200);
      expect((await logout(edge, {})).statusCode).toBe(200); // no Origin: not a browser
      for (const origin of [
        'https://wayfarer.example:8443',
        'http://wayfarer.example:8444',
        'http://wayfarer.example',
        'http://evil.example:8443',
        'null',
        'not a url',
      ]) {
        const res = await logout(edge, { origin });
        expect(res.statusCode, origin).toBe(403);
        expect(res.json(), origin).toEqual({
          error: 'forbidden',
          message: 'Cross-origin requests are not allowed.',
        });
      }
    });

    it('takes the scheme from X-Forwarded-Proto only behind a trusted proxy', async () => {
      const forwarded = { 'x-forwarded-proto': 'https' };
      const viaProxy = (origin: string) =>
        send(port, {
          method: 'POST',
          path: '/api/logout',
          headers: { ...forwarded, origin, host: 'wayfarer.example' },
        });
      expect((await viaProxy('https://wayfarer.example')).status).toBe(200);
      expect((await viaProxy('http://wayfarer.example')).status).toBe(403);
      // at the edge a client-sent X-Forwarded-Proto changes nothing
      const atEdge = (origin: string) =>
        logout(edge, { ...forwarded, origin, host: 'wayfarer.example' });
      expect((await atEdge('http://wayfarer.example')).statusCode).toBe(200);
      expect((await atEdge('https://wayfarer.example')).statusCode).toBe(403);
    });
  });

  describe('access log', () => {
    it('writes one info line per request: method, canonical path, status, upstream and its time, total time, request id', async () => {
      const firstLog = logs.lines.length;
      const res = await send(port, {
        path: '/api//journal/./d1?token=secret',
        headers: { cookie: cookie(), 'x-forwarded-for': clientIp() },
      });
      expect(res.status).toBe(200);
      const requestId = res.headers['x-request-id'];
      // the line is written when the answer is done (onResponse)
      await vi.waitFor(() =>
        expect(logs.lines.slice(firstLog).some((line) => line.includes(String(requestId)))).toBe(
          true,
        ),
      );
      const lines = logs.lines
        .slice(firstLog)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.reqId === requestId);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        level: 30,
        msg: 'request',
        method: 'GET',
        path: '/api/journal/d1', // canonical, no query string
        status: 200,
        upstream: 'journal',
        upstreamMs: expect.any(Number),
        ms: expect.any(Number),
      });
      expect(lines[0]!.ms as number).toBeGreaterThanOrEqual(lines[0]!.upstreamMs as number);
    });
  });
});
