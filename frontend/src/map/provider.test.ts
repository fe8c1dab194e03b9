import { describe, expect, it } from 'vitest';
import { chooseProvider, fetchRuntimeKey, keyFromRuntimeConfig, resolveProvider } from './provider';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('map provider choice', () => {
  it('is keyless without any key', () => {
    expect(chooseProvider(undefined, null)).toEqual({ kind: 'keyless' });
    expect(chooseProvider('', '')).toEqual({ kind: 'keyless' });
    expect(chooseProvider('   ', undefined)).toEqual({ kind: 'keyless' });
    expect(chooseProvider(42, { key: 'x' })).toEqual({ kind: 'keyless' });
  });

  it('is Google with a build-time key, which wins over the run-time one', () => {
    expect(chooseProvider('build-key', null)).toEqual({ kind: 'google', apiKey: 'build-key' });
    expect(chooseProvider(' build-key ', 'runtime')).toEqual({
      kind: 'google',
      apiKey: 'build-key',
    });
  });

  it('is Google with a run-time key when the build has none', () => {
    expect(chooseProvider(undefined, 'runtime-key')).toEqual({
      kind: 'google',
      apiKey: 'runtime-key',
    });
  });

  it('reads the key from a runtime-config body', () => {
    expect(keyFromRuntimeConfig({ googleMapsApiKey: 'k' })).toBe('k');
    expect(keyFromRuntimeConfig({ googleMapsApiKey: null })).toBeNull();
    expect(keyFromRuntimeConfig({ googleMapsApiKey: '' })).toBeNull();
    expect(keyFromRuntimeConfig('k')).toBeNull();
    expect(keyFromRuntimeConfig(null)).toBeNull();
  });

  it('treats a 404, a failed fetch and a non-JSON answer as no key', async () => {
    expect(await fetchRuntimeKey(async () => json({ error: 'not_found' }, 404))).toBeNull();
    expect(
      await fetchRuntimeKey(async () => {
        throw new TypeError('Failed to fetch');
      }),
    ).toBeNull();
    expect(
      await fetchRuntimeKey(
        async () => new Response('<!doctype html>', { headers: { 'content-type': 'text/html' } }),
      ),
    ).toBeNull();
    expect(await fetchRuntimeKey(async () => json({ googleMapsApiKey: 'live' }))).toBe('live');
  });

  it('asks the gateway only when the build has no key', async () => {
    let calls = 0;
    const fetchImpl = async (input: RequestInfo | URL) => {
      calls++;
      expect(String(input)).toBe('/runtime-config.json');
      return json({ googleMapsApiKey: 'from-gateway' });
    };
    expect(await resolveProvider('built-in', fetchImpl)).toEqual({
      kind: 'google',
      apiKey: 'built-in',
    });
    expect(calls).toBe(0);
    expect(await resolveProvider(undefined, fetchImpl)).toEqual({
      kind: 'google',
      apiKey: 'from-gateway',
    });
    expect(calls).toBe(1);
    expect(await resolveProvider(undefined, async () => json({ googleMapsApiKey: null }))).toEqual({
      kind: 'keyless',
    });
  });
});
