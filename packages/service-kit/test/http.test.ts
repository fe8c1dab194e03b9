import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { gatewayHeaders, TEST_IDENTITY_PROOF_SECRET, throughGateway } from '@wayfarer/test-kit';
import { acceptsEncoding, createHttpApp } from '../src/http';
import { HttpError } from '../src/errors';
import { clientIpOf, identityOf, requireUserId } from '../src/identity';
import { createLogger } from '../src/logger';
import { parse } from '../src/validate';

/** The app as a service makes it: it refuses requests without the gateway's proof. */
function rawApp(ready = true) {
  const a = createHttpApp({
    name: 'test',
    logger: createLogger('test', 'silent'),
    readiness: { store: async () => (ready ? 1 : Promise.reject(new Error('store down'))) },
    identityProofSecret: Buffer.from(TEST_IDENTITY_PROOF_SECRET),
  });
  a.post('/echo', async (request) => parse(z.object({ n: z.number().int() }), request.body));
  a.get('/me', async (request) => ({ userId: requireUserId(request) }));
  a.get('/whoami', async (request) => ({
    identity: identityOf(request),
    clientIp: clientIpOf(request),
  }));
  a.get('/teapot', async () => {
    throw new HttpError(418, 'I am a teapot.');
  });
  a.get('/boom', async () => {
    throw new Error('secret internals');
  });
  return a;
}
/** The same app called through the gateway (test-kit adds the proof). */
const app = (ready = true) => throughGateway(rawApp(ready));

describe('createHttpApp', () => {
  it('answers /healthz and /readyz from the stores, without an identity proof', async () => {
    expect((await rawApp().inject('/healthz')).json()).toEqual({ status: 'ok', service: 'test' });
    expect((await rawApp().inject('/readyz')).statusCode).toBe(200);
    const down = await rawApp(false).inject('/readyz');
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

  it('takes identity only from the gateway proof, and echoes request ids', async () => {
    expect((await app().inject('/me')).statusCode).toBe(401);
    const res = await app().inject({
      url: '/me',
      headers: { 'x-user-id': 'u1', 'x-request-id': 'req-1' },
    });
    expect(res.json()).toEqual({ userId: 'u1' });
    expect(res.headers['x-request-id']).toBe('req-1');
  });

  it('refuses every route but the probes without a proof: a forged x-user-id gets 401', async () => {
    const a = rawApp();
    for (const request of [
      { url: '/me', headers: { 'x-user-id': 'u1' } },
      { method: 'POST' as const, url: '/echo', payload: { n: 1 }, headers: { 'x-user-id': 'u1' } },
      { url: '/nope' },
    ]) {
      const res = await a.inject(request);
      expect(res.statusCode, request.url).toBe(401);
      expect(res.json()).toEqual({
        error: 'unauthorized',
        message:
          'This service only answers requests forwarded by the gateway: this request has no identity proof.',
      });
    }
  });

  it('refuses a valid proof of one user with the x-user-id of another', async () => {
    const headers = { ...gatewayHeaders('GET', '/me', { userId: 'u1' }), 'x-user-id': 'u2' };
    const res = await rawApp().inject({ url: '/me', headers });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toMatch(/identity proof is not valid for this request/);
  });

  it('refuses a proof minted for another route or method', async () => {
    const mine = gatewayHeaders('GET', '/whoami', { userId: 'u1' });
    expect((await rawApp().inject({ url: '/me', headers: mine })).statusCode).toBe(401);
    const res = await rawApp().inject({ method: 'POST', url: '/whoami', headers: mine });
    expect(res.statusCode).toBe(401);
    // the query string is not bound
    expect((await rawApp().inject({ url: '/whoami?x=1', headers: mine })).statusCode).toBe(200);
  });

  it('gives routes the proven identity and client address, never X-Forwarded-For', async () => {
    const headers = {
      ...gatewayHeaders('GET', '/whoami', {
        userId: 'u1',
        sessionId: 's1',
        sessionExpires: 1_900_000_000,
        clientIp: '203.0.113.7',
      }),
      'x-forwarded-for': '198.51.100.1',
    };
    const res = await rawApp().inject({ url: '/whoami', headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      identity: { userId: 'u1', sessionId: 's1', sessionExpires: 1_900_000_000 },
      clientIp: '203.0.113.7',
    });
    const anonymous = await rawApp().inject({
      url: '/whoami',
      headers: gatewayHeaders('GET', '/whoami', { clientIp: '203.0.113.8' }),
    });
    expect(anonymous.json()).toEqual({ identity: null, clientIp: '203.0.113.8' });
  });

  it('checks nothing when made for the gateway (identityProofSecret: false)', async () => {
    const gw = createHttpApp({
      name: 'gw',
      logger: createLogger('gw', 'silent'),
      identityProofSecret: false,
    });
    gw.get('/x', async (request) => ({ identity: identityOf(request) }));
    const res = await gw.inject({ url: '/x', headers: { 'x-user-id': 'u1' } });
    expect(res.json()).toEqual({ identity: null });
  });

  it('answers unknown routes with a JSON 404', async () => {
    const res = await app().inject('/nope');
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('not_found');
  });
});

describe('acceptsEncoding', () => {
  it.each([
    ['gzip, deflate, br', true],
    ['br', true],
    ['BR;q=0.5', true],
    ['gzip, *', true],
    ['*;q=0.1', true],
    ['gzip', false],
    ['br;q=0', false],
    ['br;q=0.0, *', false],
    ['*;q=0', false],
    ['identity', false],
    ['', false],
  ])('%j takes br: %s', (header, takes) => {
    expect(acceptsEncoding(header, 'br')).toBe(takes);
  });

  it('reads a repeated header and an absent one', () => {
    expect(acceptsEncoding(['gzip', 'br'], 'br')).toBe(true);
    expect(acceptsEncoding(undefined, 'br')).toBe(false);
  });
});
