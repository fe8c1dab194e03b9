import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShareMessages, SharePaths, type SharedTrip } from '@wayfarer/contracts';
import { createLogger, verifyIdentityProof } from '@wayfarer/service-kit';
import { TEST_IDENTITY_PROOF_SECRET, testInfra } from '@wayfarer/test-kit';
import { buildApp } from '../src/app';
import { GatewayEnv } from '../src/config';
import { contentSecurityPolicy } from '../src/csp';
import { testSessions } from './wire';

/**
 * Share links at the gateway: `/api/shared/...` goes to trips without a session
 * (a signed-in visitor is forwarded as anonymous), under a per-address limit of its own that
 * `/s/{token}` pages count against too; `/s/{token}` is the SPA's page with its head filled
 * from trips' answer (Open Graph, escaped), `noindex` unless allowed, 404 for a link that no
 * longer works, and served without a preview when trips fails. Real Redis, a real trips stand-in
 * on a port checking the identity proof as the services do.
 */

const SHARED_LIMIT = 12;
/** The gateway's configured public origin (PUBLIC_URL). */
const PUBLIC_ORIGIN = 'https://wayfarer.example';
const secret = Buffer.from(TEST_IDENTITY_PROOF_SECRET);
const token = () => randomBytes(32).toString('base64url');

const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta
      name="description"
      content="Wayfarer: record your trips."
    />
    <title>Wayfarer</title>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/static/js/app-abc.js"></script>
  </body>
</html>
`;

const NASTY = `Rome <script>alert("x")</script> & 'friends'`;

/** What trips' stand-in answers per token (`'reset'`: the connection cut, `500`: an error). */
const links = new Map<string, SharedTrip | 'reset' | 500>();
/** What trips' stand-in saw: path, user id header, and whether the identity proof held. */
const seen: { path: string; userId: unknown; proof: unknown; cookie: unknown }[] = [];

const trip = (over: Partial<SharedTrip> = {}): SharedTrip => ({
  name: 'Andes',
  startDate: '2026-05-01',
  endDate: '2026-05-09',
  includeStories: false,
  allowIndexing: false,
  expiresAt: null,
  destinations: [
    {
      _id: 'd1',
      name: 'Lima',
      latitude: -12.05,
      longitude: -77.04,
      startDate: '2026-05-01',
      endDate: '2026-05-03',
      photos: [],
    },
    {
      _id: 'd2',
      name: 'Cusco',
      latitude: -13.53,
      longitude: -71.97,
      startDate: '2026-05-04',
      endDate: '2026-05-09',
      photos: ['/api/shared/TOKEN/photos/p1', '/api/shared/TOKEN/photos/p2'],
    },
  ],
  ...over,
});

async function startTrips(): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify();
  app.get<{ Params: { token: string; rest?: string } }>('/api/shared/:token', (request, reply) => {
    const proof = verifyIdentityProof(request.raw, secret);
    seen.push({
      path: request.url,
      userId: request.headers['x-user-id'],
      proof: proof.ok ? proof.identity : proof.reason,
      cookie: request.headers.cookie,
    });
    const link = links.get(request.params.token);
    if (link === 'reset') return void request.raw.socket.destroy();
    if (link === 500) return reply.code(500).send({ error: 'internal', message: 'boom' });
    if (!link) {
      return reply.code(404).send({ error: 'not_found', message: ShareMessages.linkGone });
    }
    return reply.send(link);
  });
  app.get('/api/shared/:token/photos/:photoId', (_request, reply) =>
    reply
      .header('cache-control', 'private, max-age=60')
      .type('image/webp')
      .send(Buffer.from('img')),
  );
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url };
}

describe('share links at the gateway', () => {
  const sessions = testSessions();
  let trips: { app: FastifyInstance; url: string };
  let redis: Redis;
  /** Behind one trusted proxy (TRUST_PROXY=1): X-Forwarded-* count. */
  let behindProxy: FastifyInstance;
  /** At the edge: X-Forwarded-* are the client's words and do not count. */
  let edge: FastifyInstance;

  const build = async (extra: Record<string, string | undefined>) => {
    const dist = mkdtempSync(join(tmpdir(), 'wayfarer-share-'));
    writeFileSync(join(dist, 'index.html'), INDEX_HTML);
    const app = await buildApp({
      redis,
      logger: createLogger('gateway-test', 'silent'),
      publicKeyPem: sessions.publicKeyPem,
      identityProofSecret: secret,
      config: GatewayEnv.parse({
        PORT: '8080',
        REDIS_URL: testInfra().redisUrl,
        TRIPS_URL: trips.url,
        FRONTEND_DIST: dist,
        SHARED_RATE_LIMIT_PER_MINUTE: String(SHARED_LIMIT),
        PUBLIC_URL: PUBLIC_ORIGIN,
        LOG_LEVEL: 'silent',
        ...extra,
      }),
    });
    await app.ready();
    return app;
  };

  beforeAll(async () => {
    trips = await startTrips();
    redis = new Redis(testInfra().redisUrl);
    behindProxy = await build({ TRUST_PROXY: '1' });
    edge = await build({});
  });

  afterAll(async () => {
    await behindProxy?.close();
    await edge?.close();
    await trips?.app.close();
    await redis?.quit();
  });

  /** A client address of its own (the limits are per address, shared in Redis machine-wide). */
  const address = () =>
    `10.${20 + Math.floor(Math.random() * 200)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

  const page = (path: string, headers: Record<string, string> = {}) =>
    behindProxy.inject({
      url: path,
      headers: {
        accept: 'text/html',
        'x-forwarded-for': address(),
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'wayfarer.example',
        ...headers,
      },
    });

  const live = (over: Partial<SharedTrip> = {}) => {
    const t = token();
    const shared = trip(over);
    for (const d of shared.destinations) d.photos = d.photos.map((p) => p.replace('TOKEN', t));
    links.set(t, shared);
    return t;
  };

  describe('/api/shared', () => {
    it('is public: no session needed, and a signed-in visitor is forwarded as anonymous', async () => {
      const t = live();
      const anonymous = await behindProxy.inject({
        url: SharePaths.api(t),
        headers: { 'x-forwarded-for': address() },
      });
      expect(anonymous.statusCode, anonymous.body).toBe(200);
      expect(anonymous.json<SharedTrip>().name).toBe('Andes');
      expect(anonymous.headers['cache-control']).toBe('no-store');

      const cookie = sessions.cookie();
      const signedIn = await behindProxy.inject({
        url: SharePaths.api(t),
        headers: { cookie, 'x-forwarded-for': address(), 'x-user-id': 'forged' },
      });
      expect(signedIn.statusCode).toBe(200);
      const last = seen.at(-1)!;
      expect(last.path).toBe(SharePaths.api(t));
      expect(last.userId).toBeUndefined();
      // the proof holds and names no user (the services' anonymous identity)
      expect(last.proof).toMatchObject({ userId: null, sessionId: null });

      // a link that no longer works: trips' 404 as it is
      const gone = await behindProxy.inject({
        url: SharePaths.api(token()),
        headers: { 'x-forwarded-for': address() },
      });
      expect(gone.statusCode).toBe(404);
      expect(gone.json()).toEqual({ error: 'not_found', message: ShareMessages.linkGone });

      // photos under the link, with trips' own cache policy
      const photo = await behindProxy.inject({
        url: SharePaths.photo(t, 'p1'),
        headers: { 'x-forwarded-for': address() },
      });
      expect(photo.statusCode).toBe(200);
      expect(photo.headers['cache-control']).toBe('private, max-age=60');
      expect(photo.rawPayload.toString()).toBe('img');

      // the owner's API stays behind the session
      const owners = await behindProxy.inject({
        method: 'POST',
        url: `/api/trips/t1/share`,
        headers: { 'x-forwarded-for': address() },
      });
      expect(owners.statusCode).toBe(401);
    });

    it('is rate limited per address, pages and reads together, apart from the /api limit', async () => {
      const t = live();
      const client = address();
      const codes: number[] = [];
      for (let i = 0; i < SHARED_LIMIT + 3; i++) {
        const res = await behindProxy.inject({
          url: i % 3 === 0 ? SharePaths.page(t) : SharePaths.api(t),
          headers: { accept: 'text/html', 'x-forwarded-for': client },
        });
        codes.push(res.statusCode);
        if (res.statusCode === 429) {
          expect(res.json().message).toMatch(/^Too many requests\. Please wait \d+ s/);
          expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        }
      }
      expect(codes.slice(0, SHARED_LIMIT)).toEqual(codes.slice(0, SHARED_LIMIT).map(() => 200));
      expect(codes.slice(SHARED_LIMIT)).toEqual([429, 429, 429]);
      // another address is not affected; the same address's other /api calls neither
      const other = await behindProxy.inject({
        url: SharePaths.api(t),
        headers: { 'x-forwarded-for': address() },
      });
      expect(other.statusCode).toBe(200);
      const api = await behindProxy.inject({
        url: '/api/protected',
        headers: { 'x-forwarded-for': client },
      });
      expect(api.statusCode).toBe(401);
    });
  });

  describe('/s/{token}', () => {
    const metaOf = (html: string, key: string) => {
      const m = new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)" />`).exec(html);
      return m ? m[1] : null;
    };

    it('fills the head for previews, every value escaped; noindex by default; the CSP holds', async () => {
      const t = live({
        name: NASTY,
        destinations: trip().destinations.map((d, i) =>
          i === 0 ? { ...d, name: `Lima "<b>"` } : d,
        ),
      });
      const res = await page(SharePaths.page(t));
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-security-policy']).toBe(contentSecurityPolicy(false));
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-robots-tag']).toBe('noindex');
      const html = res.body;
      const escaped =
        'Rome &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;friends&#39;';
      expect(html).toContain(`<title>${escaped} · Wayfarer</title>`);
      expect(metaOf(html, 'og:title')).toBe(escaped);
      expect(metaOf(html, 'og:type')).toBe('website');
      expect(metaOf(html, 'og:description')).toBe(
        '1 May 2026 – 9 May 2026 · Lima &quot;&lt;b&gt;&quot;, Cusco',
      );
      expect(metaOf(html, 'description')).toBe(metaOf(html, 'og:description'));
      // the first photo, absolute, on the configured public origin (PUBLIC_URL)
      expect(metaOf(html, 'og:image')).toBe(`https://wayfarer.example${SharePaths.photo(t, 'p1')}`);
      expect(metaOf(html, 'og:url')).toBe(`https://wayfarer.example${SharePaths.page(t)}`);
      expect(metaOf(html, 'robots')).toBe('noindex');
      // nothing of the name runs: no script but the app's own, no raw quote breaking out
      expect(html.match(/<script/g)).toHaveLength(1);
      expect(html).toContain('<script type="module" src="/static/js/app-abc.js"></script>');
      expect(html).not.toContain('alert("x")');
      // the app's own description gave way to the trip's
      expect(html).not.toContain('record your trips');
      // the page was read from trips as an anonymous visitor
      expect(seen.at(-1)).toMatchObject({ path: SharePaths.api(t), userId: undefined });
      expect(seen.at(-1)!.proof).toMatchObject({ userId: null });
    });

    it('builds absolute URLs on PUBLIC_URL alone: a forged Host or X-Forwarded-Host changes nothing', async () => {
      const t = live();
      const forged = { host: 'attacker.example:8080', 'x-forwarded-host': 'evil.example:8443' };
      const answers = [
        await edge.inject({ url: SharePaths.page(t), remoteAddress: address(), headers: forged }),
        // behind a trusted proxy too: what it forwards is the client's Host, as the client chose
        await page(SharePaths.page(t), { ...forged, 'x-forwarded-proto': 'http' }),
      ];
      for (const res of answers) {
        expect(res.statusCode).toBe(200);
        expect(metaOf(res.body, 'og:url')).toBe(`${PUBLIC_ORIGIN}${SharePaths.page(t)}`);
        expect(metaOf(res.body, 'og:image')).toBe(`${PUBLIC_ORIGIN}${SharePaths.photo(t, 'p1')}`);
        expect(res.body).not.toMatch(/attacker\.example|evil\.example/);
      }
    });

    it('without PUBLIC_URL (outside production), builds them on http://localhost:<PORT>', async () => {
      const local = await build({ PUBLIC_URL: undefined });
      try {
        const t = live();
        const res = await local.inject({
          url: SharePaths.page(t),
          remoteAddress: address(),
          headers: { host: 'attacker.example:8080' },
        });
        expect(metaOf(res.body, 'og:url')).toBe(`http://localhost:8080${SharePaths.page(t)}`);
      } finally {
        await local.close();
      }
    });

    it('leaves indexing allowed when the owner chose it', async () => {
      const t = live({ allowIndexing: true });
      const res = await page(SharePaths.page(t));
      expect(res.statusCode).toBe(200);
      expect(metaOf(res.body, 'robots')).toBeNull();
      expect(res.headers['x-robots-tag']).toBeUndefined();
      expect(metaOf(res.body, 'og:title')).toBe('Andes');
    });

    it('answers 404 with the plain page and noindex for a link that no longer works', async () => {
      for (const path of [SharePaths.page(token()), SharePaths.page('not-a-token')]) {
        const before = seen.length;
        const res = await page(path);
        expect(res.statusCode, path).toBe(404);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.headers['content-security-policy']).toBe(contentSecurityPolicy(false));
        expect(metaOf(res.body, 'robots')).toBe('noindex');
        expect(metaOf(res.body, 'og:title')).toBeNull();
        expect(res.body).toContain('<title>Wayfarer</title>');
        expect(res.body).toContain('<div id="root"></div>');
        // a malformed token is not even asked about
        expect(seen.length - before, path).toBe(path.endsWith('not-a-token') ? 0 : 1);
      }
    });

    it('is served without a preview when trips fails (cut connection, error)', async () => {
      for (const failure of ['reset', 500] as const) {
        const t = token();
        links.set(t, failure);
        const res = await page(SharePaths.page(t));
        expect(res.statusCode, String(failure)).toBe(200);
        expect(metaOf(res.body, 'robots')).toBe('noindex');
        expect(metaOf(res.body, 'og:title')).toBeNull();
        expect(res.body).toContain('<script type="module" src="/static/js/app-abc.js"></script>');
      }
    });
  });
});
