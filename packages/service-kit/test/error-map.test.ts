import { describe, expect, it } from 'vitest';
import { TEST_IDENTITY_PROOF_SECRET, throughGateway } from '@wayfarer/test-kit';
import { installErrorMap } from '../src/error-map';
import { HttpError } from '../src/errors';
import { createHttpApp } from '../src/http';
import { createLogger } from '../src/logger';

class Refused extends Error {}

function app() {
  const built = createHttpApp({
    name: 'error-map-test',
    logger: createLogger('error-map-test', 'silent'),
    identityProofSecret: Buffer.from(TEST_IDENTITY_PROOF_SECRET),
  });
  installErrorMap(built, (err, reply) => {
    if (!(err instanceof Refused)) return err;
    reply.header('retry-after', '7');
    return new HttpError(409, `refused: ${err.message}`);
  });
  built.get('/async', async () => {
    throw new Refused('async');
  });
  built.get('/sync', () => {
    throw new Refused('sync');
  });
  built.get('/other', async () => {
    throw new Error('not a refusal');
  });
  built.get('/fine', async () => ({ ok: true }));
  return built;
}

describe('installErrorMap (service-kit error-map.ts)', () => {
  it("answers a route's refusal, thrown or rejected, as the map says, with its headers", async () => {
    const proxied = throughGateway(app());
    for (const path of ['/async', '/sync']) {
      const res = await proxied.inject(path);
      expect(res.statusCode).toBe(409);
      expect(res.headers['retry-after']).toBe('7');
      expect(res.json().message).toBe(`refused: ${path.slice(1)}`);
    }
  });

  it('leaves what the map does not know, and answers that succeed, as they are', async () => {
    const proxied = throughGateway(app());
    expect((await proxied.inject('/other')).statusCode).toBe(500);
    const fine = await proxied.inject('/fine');
    expect(fine.statusCode).toBe(200);
    expect(fine.json()).toEqual({ ok: true });
  });
});
