import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiFetch, messageFrom } from './client';

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
