import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '@wayfarer/service-kit';
import { gatewayHeaders, TEST_IDENTITY_PROOF_SECRET } from '@wayfarer/test-kit';
import { PlacesEnv } from '../../src/config';
import { createService, type PlacesService } from '../../src/service';
import { CITIES } from '../fixtures';

const env = loadConfig(PlacesEnv, {
  LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
  IDENTITY_PROOF_SECRET: TEST_IDENTITY_PROOF_SECRET,
});
/** What the gateway sends for a signed-in user (a proof is valid for a minute: made per call). */
const signedIn = () => gatewayHeaders('GET', '/api/places', { userId: 'user-1' });

let svc: PlacesService | undefined;
afterEach(async () => {
  await svc?.close();
  svc = undefined;
});

describe('places booted by its composition root', () => {
  it('builds the index only once it listens, then is ready and serves searches', async () => {
    let loads = 0;
    svc = await createService(env, {
      loadCities: () => {
        loads += 1;
        return CITIES;
      },
    });
    // not listening yet: alive, not ready, nothing loaded
    expect((await svc.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    const early = await svc.app.inject({ url: '/readyz' });
    expect(early.statusCode).toBe(503);
    expect(early.json().checks).toEqual({ index: 'the city index is still being built' });
    expect(loads).toBe(0);

    const url = await svc.app.listen({ port: 0, host: '127.0.0.1' });
    await expect.poll(async () => (await fetch(`${url}/readyz`)).status).toBe(200);
    expect((await svc.indexed).size).toBe(CITIES.length);
    expect(loads).toBe(1);
    const res = await fetch(`${url}/api/places?query=paris&limit=1`, { headers: signedIn() });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ places: [{ label: 'Paris, France' }] });
    // its port alone, with an identity header, is not enough
    const forged = await fetch(`${url}/api/places?query=paris`, { headers: { 'x-user-id': 'u' } });
    expect(forged.status).toBe(401);
  });

  it('a dataset that cannot be loaded: never ready, and `indexed` rejects (main exits)', async () => {
    svc = await createService(env, {
      loadCities: () => {
        throw new Error('cities.pbf is missing');
      },
    });
    const url = await svc.app.listen({ port: 0, host: '127.0.0.1' });
    await expect(svc.indexed).rejects.toThrow('cities.pbf is missing');
    const res = await fetch(`${url}/readyz`);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { checks: unknown }).checks).toEqual({
      index: 'cities.pbf is missing',
    });
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });
});
