import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@wayfarer/service-kit';
import { TEST_IDENTITY_PROOF_SECRET, throughGateway } from '@wayfarer/test-kit';
import { buildApp, type PlacesDeps } from '../../src/app';
import { buildPlaceIndex, type PlaceIndex } from '../../src/domain/place-index';
import { PlacesResponse } from '../../src/routes/schema';
import { CITIES } from '../fixtures';

const logger = createLogger('places', 'silent');
/** The app as the gateway calls it (test-kit adds the identity proof to each request). */
const build = (deps: Pick<PlacesDeps, 'index'>) =>
  throughGateway(
    buildApp({ logger, identityProofSecret: Buffer.from(TEST_IDENTITY_PROOF_SECRET), ...deps }),
  );
const signedIn = { 'x-user-id': 'user-1' };

describe('GET /api/places', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = build({ index: buildPlaceIndex(CITIES) });
    await app.ready();
  });
  afterAll(() => app.close());

  const get = (query: string, headers: Record<string, string> = signedIn) =>
    app.inject({ method: 'GET', url: `/api/places${query}`, headers });

  it('answers { places: [...] } in the documented shape', async () => {
    const res = await get('?query=paris');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = PlacesResponse.parse(res.json());
    expect(body.places[0]).toEqual({
      id: '100',
      name: 'Paris',
      country: 'FR',
      latitude: expect.any(Number),
      longitude: expect.any(Number),
      population: 2_138_551,
      label: 'Paris, France',
    });
    expect(body.places.map((p) => p.label)).toEqual([
      'Paris, France',
      'Paris, United States',
      'Cormeilles-en-Parisis, France',
      'Parisot, France',
    ]);
  });

  it('decodes the query string: accents, spaces, "city, country"', async () => {
    const res = await get(`?query=${encodeURIComponent('  São Paulo ')}`);
    expect(res.json().places.map((p: { name: string }) => p.name)).toEqual(['São Paulo']);
    const filtered = await get(`?query=${encodeURIComponent('paris, united states')}`);
    expect(filtered.json().places.map((p: { label: string }) => p.label)).toEqual([
      'Paris, United States',
    ]);
  });

  it('answers 8 places by default and up to limit', async () => {
    const towns = Array.from({ length: 30 }, (_, i) => ({
      id: i + 1,
      name: `Town ${i}`,
      country: 'FR',
      latitude: 0,
      longitude: 0,
      population: 1000 + i,
    }));
    const many = build({ index: buildPlaceIndex(towns) });
    try {
      const count = async (query: string) => {
        const res = await many.inject({ url: `/api/places${query}`, headers: signedIn });
        expect(res.statusCode).toBe(200);
        return (res.json() as PlacesResponse).places.length;
      };
      expect(await count('?query=town')).toBe(8);
      expect(await count('?query=town&limit=1')).toBe(1);
      expect(await count('?query=town&limit=20')).toBe(20);
    } finally {
      await many.close();
    }
  });

  it('answers an empty list, not an error, for junk and for no match', async () => {
    for (const query of ['...', '🙂', '!?', 'qxqxqx']) {
      const res = await get(`?query=${encodeURIComponent(query)}`);
      expect(res.statusCode, query).toBe(200);
      expect(res.json(), query).toEqual({ places: [] });
    }
  });

  it.each([
    ['', 'query: Query is required.'],
    ['?limit=5', 'query: Query is required.'],
    ['?query=', 'query: Query must not be empty.'],
    ['?query=%20%20%20', 'query: Query must not be empty.'],
    [`?query=${'a'.repeat(101)}`, 'query: Query must be at most 100 characters.'],
    ['?query=a&query=b', 'query: Query must be text.'],
    ['?query=paris&limit=0', 'limit: Limit must be a whole number from 1 to 20.'],
    ['?query=paris&limit=21', 'limit: Limit must be a whole number from 1 to 20.'],
    ['?query=paris&limit=abc', 'limit: Limit must be a whole number from 1 to 20.'],
    ['?query=paris&limit=2.5', 'limit: Limit must be a whole number from 1 to 20.'],
    ['?query=paris&limit=-1', 'limit: Limit must be a whole number from 1 to 20.'],
    ['?query=paris&limit=', 'limit: Limit must be a whole number from 1 to 20.'],
    // plain text only (contracts' rule): before any lookup
    [
      '?query=par%00is',
      'Query parameter query must not contain control characters: found U+0000 at position 4.',
    ],
    [
      '?query=paris%0A',
      'Query parameter query must not contain control characters: found U+000A at position 6.',
    ],
    [
      '?query=paris&limit=5%7F',
      'Query parameter limit must not contain control characters: found U+007F at position 2.',
    ],
  ])('400 for %s', async (query, message) => {
    const res = await get(query);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'bad_request', message });
  });

  it('accepts a 100-character query and limits 1 and 20', async () => {
    expect((await get(`?query=${'a'.repeat(100)}`)).statusCode).toBe(200);
    expect((await get('?query=paris&limit=1')).statusCode).toBe(200);
    expect((await get('?query=paris&limit=20')).statusCode).toBe(200);
  });

  it('401 without a signed-in user, before looking at the query', async () => {
    for (const query of ['?query=paris', '']) {
      const res = await get(query, {});
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'unauthorized', message: 'You need to be signed in.' });
    }
  });

  it('has /healthz and /readyz, with a request id', async () => {
    const health = await app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok', service: 'places' });
    expect(health.headers['x-request-id']).toBeTruthy();
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ready',
      service: 'places',
      checks: { index: 'ok' },
    });
  });

  it('answers other routes and methods with the JSON 404', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/places', headers: signedIn });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('not_found');
  });
});

describe('while the index is being built', () => {
  it('is not ready and answers 503, then serves once the index is there', async () => {
    let resolve!: (index: PlaceIndex) => void;
    const pending = new Promise<PlaceIndex>((r) => (resolve = r));
    const app = build({ index: pending });
    await app.ready();
    try {
      const notReady = await app.inject({ method: 'GET', url: '/readyz' });
      expect(notReady.statusCode).toBe(503);
      expect(notReady.json()).toMatchObject({
        status: 'not_ready',
        checks: { index: 'the city index is still being built' },
      });
      const early = await app.inject({
        method: 'GET',
        url: '/api/places?query=paris',
        headers: signedIn,
      });
      expect(early.statusCode).toBe(503);
      expect(early.headers['retry-after']).toBe('1');
      expect(early.json()).toMatchObject({ error: 'not_ready' });

      resolve(buildPlaceIndex(CITIES));
      await pending;
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      const later = await app.inject({
        method: 'GET',
        url: '/api/places?query=paris',
        headers: signedIn,
      });
      expect(later.statusCode).toBe(200);
      expect(later.json().places[0].label).toBe('Paris, France');
    } finally {
      await app.close();
    }
  });

  it('stays not ready when building failed', async () => {
    const app = build({ index: Promise.reject(new Error('cities.pbf is missing')) });
    await app.ready();
    try {
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json().checks).toEqual({ index: 'cities.pbf is missing' });
    } finally {
      await app.close();
    }
  });
});
