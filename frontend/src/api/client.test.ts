import { afterEach, describe, expect, it, vi } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER } from '@wayfarer/contracts';
import {
  ApiError,
  apiFetch,
  IdempotencyKeys,
  messageFrom,
  randomKey,
  requestSignature,
} from './client';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('messageFrom', () => {
  it('prefers message, then error', () => {
    expect(messageFrom({ message: 'Email taken', error: 'x' })).toBe('Email taken');
    expect(messageFrom({ error: 'Bad input' })).toBe('Bad input');
  });

  it('ignores empty or non-string fields and non-objects', () => {
    expect(messageFrom({ message: '  ' })).toBeUndefined();
    expect(messageFrom({ message: 42 })).toBeUndefined();
    expect(messageFrom('oops')).toBeUndefined();
    expect(messageFrom(null)).toBeUndefined();
  });
});

describe('apiFetch', () => {
  it('sends credentials and a JSON body, and parses the JSON answer', async () => {
    const fetchMock = vi.fn(async () => jsonResponse(200, { user: { id: 'u1' }, message: 'ok' }));
    vi.stubGlobal('fetch', fetchMock);

    const data = await apiFetch<{ user: { id: string } }>('/api/login', {
      method: 'POST',
      json: { email: 'a@b.co', password: 'pw' },
    });

    expect(data.user.id).toBe('u1');
    const [path, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe('/api/login');
    expect(init.credentials).toBe('include');
    expect(init.body).toBe(JSON.stringify({ email: 'a@b.co', password: 'pw' }));
    expect(new Headers(init.headers).get('content-type')).toBe('application/json');
  });

  it('throws an ApiError with the server message and status', async () => {
    vi.stubGlobal('fetch', async () => jsonResponse(409, { message: 'Email already registered' }));

    const err = await apiFetch('/api/register', { method: 'POST' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(409);
    expect((err as ApiError).serverMessage).toBe('Email already registered');
    expect((err as ApiError).message).toBe('Email already registered');
  });

  it('turns a network failure into an ApiError with status 0 and no server message', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('fetch failed');
    });

    const err = await apiFetch('/api/protected').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(0);
    expect((err as ApiError).serverMessage).toBeUndefined();
  });

  it('accepts empty and non-JSON answers', async () => {
    vi.stubGlobal('fetch', async () => new Response(null, { status: 204 }));
    await expect(apiFetch('/api/logout', { method: 'POST' })).resolves.toBeNull();

    vi.stubGlobal('fetch', async () => new Response('Bad gateway', { status: 502 }));
    const err = (await apiFetch('/api/protected').catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(502);
    expect(err.serverMessage).toBeUndefined();
  });
});

describe('idempotent creates', () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  /** A fetch answering `statuses` in turn (0: a network error), recording the keys sent. */
  function server(...statuses: number[]) {
    const keys: (string | null)[] = [];
    vi.stubGlobal('fetch', async (_path: string, init: RequestInit) => {
      keys.push(new Headers(init.headers).get(IDEMPOTENCY_KEY_HEADER));
      const status = statuses.shift() ?? 201;
      if (status === 0) throw new TypeError('fetch failed');
      return jsonResponse(status, { data: { ok: true } });
    });
    return keys;
  }
  const add = (place: string) =>
    apiFetch('/api/bucketlist', { method: 'POST', json: { place }, idempotent: true }).catch(
      (e: unknown) => e,
    );

  it('sends one random key per action and the same key when the action is retried', async () => {
    const keys = server(0, 502, 201);
    expect(await add('Paris')).toBeInstanceOf(ApiError); // the answer never came
    expect(await add('Paris')).toBeInstanceOf(ApiError); // 502
    expect(await add('Paris')).toEqual({ data: { ok: true } });
    expect(keys[0]).toMatch(UUID);
    expect(keys).toEqual([keys[0], keys[0], keys[0]]);
  });

  it('gives a new key to the same request once it succeeded, and to another request', async () => {
    const keys = server(201, 201, 0);
    await add('Paris');
    await add('Paris'); // meant again: a second place
    await add('Lima');
    expect(new Set(keys).size).toBe(3);
  });

  it('sends no key on other requests', async () => {
    const keys = server(200);
    await apiFetch('/api/itinerary', { method: 'POST', json: { itinerary: [] } });
    expect(keys).toEqual([null]);
  });

  it('remembers a bounded number of unfinished actions, the oldest going first', () => {
    let n = 0;
    const registry = new IdempotencyKeys(() => `k${++n}`, 2);
    expect([registry.keyFor('a'), registry.keyFor('b'), registry.keyFor('a')]).toEqual([
      'k1',
      'k2',
      'k1',
    ]);
    registry.keyFor('c'); // 'a' was the oldest
    expect(registry.keyFor('b')).toBe('k2');
    expect(registry.keyFor('a')).toBe('k4');
    registry.settle('b');
    expect(registry.keyFor('b')).toBe('k5');
  });

  it('signs a form by its fields and its files, not by the FormData object', () => {
    const photo = (bytes: string) =>
      new File([bytes], 'a.png', { type: 'image/png', lastModified: 1 });
    const form = (name: string, file: File) => {
      const f = new FormData();
      f.append('name', name);
      f.append('photos[0]', file);
      return f;
    };
    const same = photo('12345');
    expect(requestSignature('POST', '/api/trips', form('Rome', same))).toBe(
      requestSignature('post', '/api/trips', form('Rome', same)),
    );
    expect(requestSignature('POST', '/api/trips', form('Rome', same))).not.toBe(
      requestSignature('POST', '/api/trips', form('Oslo', same)),
    );
    expect(requestSignature('POST', '/api/trips', form('Rome', same))).not.toBe(
      requestSignature('POST', '/api/trips', form('Rome', photo('123456'))),
    );
  });

  it('makes a v4 UUID where crypto.randomUUID is missing (an insecure origin)', () => {
    vi.stubGlobal('crypto', { getRandomValues: <T extends Uint8Array>(b: T) => b.fill(0xab) });
    expect(randomKey()).toMatch(UUID);
  });
});
