import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHttpApp } from '../src/http';
import { HttpError } from '../src/errors';
import { requireUserId } from '../src/identity';
import { createLogger } from '../src/logger';
import { parse } from '../src/validate';

function app(ready = true) {
  const a = createHttpApp({
    name: 'test',
    logger: createLogger('test', 'silent'),
    readiness: { store: async () => (ready ? 1 : Promise.reject(new Error('store down'))) },
  });
  a.post('/echo', async (request) => parse(z.object({ n: z.number().int() }), request.body));
  a.get('/me', async (request) => ({ userId: requireUserId(request) }));
  a.get('/teapot', async () => {
    throw new HttpError(418, 'I am a teapot.');
  });
  a.get('/boom', async () => {
    throw new Error('secret internals');
  });
  return a;
}

describe('createHttpApp', () => {
  it('answers /healthz and /readyz from the stores', async () => {
    expect((await app().inject('/healthz')).json()).toEqual({ status: 'ok', service: 'test' });
    expect((await app().inject('/readyz')).statusCode).toBe(200);
    const down = await app(false).inject('/readyz');
    expect(down.statusCode).toBe(503);
    expect(down.json().checks.store).toBe('store down');
  });

  it('answers bad input with a 400 and a readable message', async () => {
    const res = await app().inject({ method: 'POST', url: '/echo', payload: { n: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^n: /);
    const junk = await app().inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(junk.statusCode).toBe(400);
  });

  it('keeps an HttpError message and hides unexpected errors', async () => {
    expect((await app().inject('/teapot')).json()).toEqual({
      error: 'error',
      message: 'I am a teapot.',
    });
    const boom = await app().inject('/boom');
    expect(boom.statusCode).toBe(500);
    expect(boom.body).not.toContain('secret internals');
  });

  it('takes identity only from the gateway header, and echoes request ids', async () => {
    expect((await app().inject('/me')).statusCode).toBe(401);
    const res = await app().inject({
      url: '/me',
      headers: { 'x-user-id': 'u1', 'x-request-id': 'req-1' },
    });
    expect(res.json()).toEqual({ userId: 'u1' });
    expect(res.headers['x-request-id']).toBe('req-1');
  });

  it('answers unknown routes with a JSON 404', async () => {
    const res = await app().inject('/nope');
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('not_found');
  });
});
