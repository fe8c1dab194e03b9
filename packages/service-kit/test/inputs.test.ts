import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { gatewayHeaders, TEST_IDENTITY_PROOF_SECRET, throughGateway } from '@wayfarer/test-kit';
import { HttpError } from '../src/errors';
import { createHttpApp } from '../src/http';
import { jsonCharsetError } from '../src/inputs';
import { createLogger } from '../src/logger';
import { parse } from '../src/validate';

/** A service's app with a JSON route, parameters, and a route refusing without reading its body. */
function rawApp() {
  const a = createHttpApp({
    name: 'test',
    logger: createLogger('test', 'silent'),
    identityProofSecret: Buffer.from(TEST_IDENTITY_PROOF_SECRET),
  });
  a.post('/echo', async (request) => parse(z.object({ text: z.string() }), request.body));
  a.get('/items/:id', async (request) => ({ params: request.params, query: request.query }));
  // a streamed body the route leaves unread (as a multipart route that refuses at once)
  a.addContentTypeParser('application/octet-stream', (_request, _payload, done) => done(null));
  a.post('/refuse', async () => {
    throw new HttpError(403, 'Not yours.');
  });
  return a;
}
const app = throughGateway(rawApp());

describe('JSON bodies in another charset than UTF-8', () => {
  const post = (contentType: string, payload = '{"text":"h\u00e9"}') =>
    app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': contentType }, payload });

  it.each([
    'application/json; charset=utf-16',
    'application/json;charset="UTF-16LE"',
    'application/problem+json; charset=iso-8859-1',
  ])('refuses %s with a 415 naming the charset', async (contentType) => {
    const res = await post(contentType);
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({
      error: 'unsupported_media_type',
      message: expect.stringMatching(
        /^JSON bodies must be UTF-8: this one is declared charset=(utf-16|utf-16le|iso-8859-1)\. Send it as UTF-8/,
      ),
    });
  });

  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'application/json; Charset="UTF-8"',
  ])('reads %s', async (contentType) => {
    const res = await post(contentType);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ text: 'h\u00e9' });
  });

  it('leaves other media types to their routes', () => {
    expect(jsonCharsetError('text/plain; charset=utf-16')).toBeNull();
    expect(jsonCharsetError(undefined)).toBeNull();
  });
});

describe('path and query parameters', () => {
  it.each([
    [
      '/items/a%00b',
      'Path parameter id must not contain control characters: found U+0000 at position 2.',
    ],
    [
      '/items/%7F',
      'Path parameter id must not contain control characters: found U+007F at position 1.',
    ],
    [
      '/items/x?q=%00',
      'Query parameter q must not contain control characters: found U+0000 at position 1.',
    ],
    [
      '/items/x?q=ok&q=a%0Ab',
      'Query parameter q must not contain control characters: found U+000A at position 2.',
    ],
    [
      '/items/x?%01=1',
      'Query parameter names must not contain control characters: found U+0001 at position 1.',
    ],
  ])('refuses %s with a 400 naming the parameter', async (url, message) => {
    const res = await app.inject(url);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'bad_request', message });
  });

  it('never hands a route a lone surrogate escaped in a URL (it is not UTF-8)', async () => {
    expect((await app.inject('/items/%ED%A0%80')).statusCode).toBe(400);
    const query = await app.inject('/items/x?q=%ED%A0%80');
    // the query parser leaves an escape it cannot decode as it was sent: text
    expect(query.json<{ query: { q: string } }>().query.q).toBe('%ED%A0%80');
  });

  it('lets plain text through, accents, emoji and all', async () => {
    const res = await app.inject('/items/Z%C3%BCrich?q=%F0%9F%8C%8D%20caf%C3%A9');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ params: { id: 'Zürich' }, query: { q: '🌍 café' } });
  });
});

describe('an answer sent before the body was read, over real HTTP', () => {
  const raw = rawApp();
  let base = '';
  beforeAll(async () => {
    base = await raw.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => raw.close());

  const send = async (path: string, bytes: number, headers: Record<string, string>) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers,
      body: new Uint8Array(bytes).fill(97),
    });
    const body: unknown = await res.json();
    return { status: res.status, body, connection: res.headers.get('connection') };
  };
  const octets = { 'content-type': 'application/octet-stream' };

  it('waits until the rest of a refused body is read, and keeps the connection', async () => {
    for (const bytes of [1024, 300 * 1024, 900 * 1024]) {
      const res = await send('/refuse', bytes, { ...octets, ...gatewayHeaders('POST', '/refuse') });
      expect(res).toEqual({
        status: 403,
        body: { error: 'forbidden', message: 'Not yours.' },
        connection: 'keep-alive',
      });
    }
  });

  it('does so for a request refused for its identity proof too', async () => {
    const res = await send('/refuse', 300 * 1024, octets);
    expect(res.status).toBe(401);
    expect(res.connection).toBe('keep-alive');
  });

  it('closes the connection after answering a body larger than the route takes', async () => {
    const res = await send('/refuse', 3 * 1024 * 1024, {
      ...octets,
      ...gatewayHeaders('POST', '/refuse'),
    });
    expect(res.status).toBe(403);
    expect(res.connection).toBe('close');
  });
});
