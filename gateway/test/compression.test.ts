import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@wayfarer/service-kit';
import { testInfra } from '@wayfarer/test-kit';
import { buildApp } from '../src/app';
import { COMPRESSION_THRESHOLD_BYTES } from '../src/compression';
import { getBytes as get, type BytesResponse, testSessions, testConfig } from './wire';

/**
 * Compression on the wire: a real gateway on a port, real Redis, a real upstream service, and a
 * real frontend dist directory with brotli and gzip twins next to its assets (as the frontend
 * build writes them). Raw `node:http` requests, so nothing decodes the answers behind our back.
 */

const decoded = (res: BytesResponse): string => {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.body).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(res.body).toString('utf8');
  if (encoding !== undefined) throw new Error(`unexpected content-encoding ${encoding}`);
  return res.body.toString('utf8');
};

const varies = (res: BytesResponse) =>
  String(res.headers.vary ?? '')
    .toLowerCase()
    .split(/\s*,\s*/);

// text that compresses, as a bundle or the API's JSON would
const bigText = (label: string, bytes: number) =>
  Array.from({ length: Math.ceil(bytes / 40) }, (_, i) => `${label} line ${i} of something\n`).join(
    '',
  );

/** Writes `path` under `dist`, with its brotli and gzip twins. */
function asset(dist: string, path: string, content: string | Buffer, twins = true) {
  const file = join(dist, path);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, content);
  if (!twins) return;
  writeFileSync(`${file}.br`, brotliCompressSync(content));
  writeFileSync(`${file}.gz`, gzipSync(content));
}

describe('compression at the gateway', () => {
  const sessions = testSessions();
  const cookie = () => sessions.cookie();

  const js = `${bigText('console.log', 20_000)}export {};\n`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg">${'<path d="M0 0L10 10"/>'.repeat(200)}</svg>`;
  const geo = JSON.stringify({ type: 'Topology', arcs: bigText('arc', 30_000) });
  const html = `<!doctype html><title>Wayfarer</title>${'<!-- padding -->'.repeat(100)}`;
  const photo = randomBytes(20_000); // photos do not compress: random bytes stand for one
  const bigJson = { trips: bigText('trip', 8_000) };
  const smallJson = { name: 'a small answer' };

  let dist: string;
  let upstream: FastifyInstance;
  let redis: Redis;
  let gateway: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'wayfarer-dist-'));
    asset(dist, 'index.html', html);
    asset(dist, 'static/js/app-abc123.js', js);
    asset(dist, 'favicon.svg', svg);
    asset(dist, 'static/media/countries-abc123.json', geo);
    asset(dist, 'static/js/untwinned-abc123.js', js, false);

    upstream = Fastify();
    upstream.get('/api/mytrips', async (_request, reply) =>
      reply.header('vary', 'origin').send(bigJson),
    );
    upstream.get('/api/userDetails', async () => smallJson);
    upstream.get('/api/photos/:id', async (request, reply) =>
      reply
        .type(
          (request.params as { id: string }).id === 'raw'
            ? 'application/octet-stream'
            : 'image/webp',
        )
        .header('cache-control', 'private, max-age=86400')
        .send(photo),
    );
    const upstreamUrl = await upstream.listen({ port: 0, host: '127.0.0.1' });

    redis = new Redis(testInfra().redisUrl);
    gateway = await buildApp({
      config: testConfig({
        AUTH_URL: upstreamUrl,
        TRIPS_URL: upstreamUrl,
        FRONTEND_DIST: dist,
        RATE_LIMIT_PER_MINUTE: '10000',
      }),
      redis,
      logger: createLogger('gateway-test', 'silent'),
      publicKeyPem: sessions.publicKeyPem,
      identityProofSecret: randomBytes(32),
    });
    await gateway.listen({ port: 0, host: '127.0.0.1' });
    port = (gateway.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
    await redis?.quit();
    if (dist) rmSync(dist, { recursive: true, force: true });
  });

  describe('static assets: the build twins, chosen by Accept-Encoding', () => {
    it.each([
      ['/static/js/app-abc123.js', js, /^(?:text|application)\/javascript/],
      ['/favicon.svg', svg, /^image\/svg\+xml/],
      ['/static/media/countries-abc123.json', geo, /^application\/json/],
    ])('%s: brotli, gzip or the plain file, always with Vary', async (path, content, type) => {
      const br = await get(port, path, { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.status).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toMatch(type);
      // the build's twin as it is on disk, not compressed again per request
      expect(Number(br.headers['content-length'])).toBe(brotliCompressSync(content).length);
      expect(decoded(br)).toBe(content);
      expect(varies(br)).toContain('accept-encoding');

      const gz = await get(port, path, { 'accept-encoding': 'gzip' });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gz.headers['content-type']).toMatch(type);
      expect(decoded(gz)).toBe(content);
      expect(varies(gz)).toContain('accept-encoding');

      for (const headers of [{}, { 'accept-encoding': 'identity' }] as Record<string, string>[]) {
        const plain = await get(port, path, headers);
        expect(plain.headers['content-encoding']).toBeUndefined();
        expect(plain.headers['content-type']).toMatch(type);
        expect(plain.body.toString('utf8')).toBe(content);
        expect(varies(plain)).toContain('accept-encoding');
      }
    });

    it('keeps the year-long cache of hashed assets on a compressed answer', async () => {
      const res = await get(port, '/static/js/app-abc123.js', { 'accept-encoding': 'br' });
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    });

    it('serves the SPA fallback (index.html) compressed too', async () => {
      const res = await get(port, '/trips', {
        accept: 'text/html',
        'accept-encoding': 'gzip, br',
      });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy']).toBeDefined();
      expect(decoded(res)).toBe(html);
      expect(varies(res)).toContain('accept-encoding');
    });

    it('still compresses an asset the build left without twins', async () => {
      const res = await get(port, '/static/js/untwinned-abc123.js', { 'accept-encoding': 'br' });
      expect(res.headers['content-encoding']).toBe('br');
      expect(decoded(res)).toBe(js);
      expect(varies(res)).toContain('accept-encoding');
    });
  });

  describe('API answers: compressed at the edge above the threshold', () => {
    const bigBody = JSON.stringify(bigJson);

    it('compresses a large proxied JSON answer as Accept-Encoding asks, keeping the service Vary', async () => {
      expect(bigBody.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
      for (const [accept, encoding] of [
        ['gzip, deflate, br', 'br'],
        ['gzip', 'gzip'],
      ] as const) {
        const res = await get(port, '/api/mytrips', {
          cookie: cookie(),
          'accept-encoding': accept,
        });
        expect(res.status).toBe(200);
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.body.length).toBeLessThan(bigBody.length / 4);
        expect(JSON.parse(decoded(res))).toEqual(bigJson);
        expect(varies(res)).toEqual(expect.arrayContaining(['origin', 'accept-encoding']));
        expect(res.headers['cache-control']).toBe('no-store');
      }
    });

    it('sends the large answer as it is to a client that accepts no encoding', async () => {
      const res = await get(port, '/api/mytrips', { cookie: cookie() });
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.body.toString('utf8')).toBe(bigBody);
    });

    it('sends a small JSON answer as it is, with its length', async () => {
      const res = await get(port, '/api/userDetails', {
        cookie: cookie(),
        'accept-encoding': 'gzip, deflate, br',
      });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(Number(res.headers['content-length'])).toBe(JSON.stringify(smallJson).length);
      expect(JSON.parse(res.body.toString('utf8'))).toEqual(smallJson);
    });

    it('sends the gateway own small answers (a 401) as they are', async () => {
      const small = await get(port, '/api/mytrips', { 'accept-encoding': 'br' }); // 401, small
      expect(small.status).toBe(401);
      expect(small.headers['content-encoding']).toBeUndefined();
    });

    it.each(['image', 'raw'])(
      'never compresses a photo (%s), whatever the client accepts',
      async (id) => {
        const res = await get(port, `/api/photos/${id}`, {
          cookie: cookie(),
          'accept-encoding': 'gzip, deflate, br',
        });
        expect(res.status).toBe(200);
        expect(res.headers['content-encoding']).toBeUndefined();
        expect(res.headers['cache-control']).toBe('private, max-age=86400');
        expect(res.body.equals(photo)).toBe(true);
      },
    );
  });
});
