import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createSigner } from 'fast-jwt';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { SESSION_AUDIENCE, SESSION_ISSUER } from '@wayfarer/contracts';
import { registerSessionVerifier } from '../src/session';

/** A verifier as the gateway registers it (@fastify/jwt on a Fastify instance of its own). */
const createTokenVerifier = (publicPem: string, now?: () => number) =>
  registerSessionVerifier(Fastify(), publicPem, now);

/** The session verifier and its cache of verified tokens (no Redis, no HTTP). */
describe('registerSessionVerifier', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const publicPem = publicKey.export({ format: 'pem', type: 'spki' }).toString();
  const sign = (expiresInMs: number, key = privateKey, clockTimestamp?: number) =>
    createSigner({
      key: key.export({ format: 'pem', type: 'pkcs8' }).toString(),
      algorithm: 'EdDSA',
      iss: SESSION_ISSUER,
      aud: SESSION_AUDIENCE,
      expiresIn: expiresInMs,
      clockTimestamp,
    })({ sub: 'user-1', jti: randomUUID() });

  it('answers a token it verified again from what it kept, until the token expires', async () => {
    let clock = Date.now();
    const verify = await createTokenVerifier(publicPem, () => clock);
    const token = sign(60_000);
    const claims = verify(token);
    expect(claims.sub).toBe('user-1');
    expect(verify(token)).toBe(claims); // the kept claims: no second signature check

    // past its exp by the verifier's clock the kept claims are not used: the token is verified
    // anew (here still valid for fast-jwt's own clock, so new claims come back)
    clock += 61_000;
    const again = verify(token);
    expect(again).not.toBe(claims);
    expect(again.sub).toBe('user-1');
  });

  it('refuses an expired token', async () => {
    const verify = await createTokenVerifier(publicPem);
    const expired = sign(60_000, privateKey, Date.now() - 120_000); // expired a minute ago
    expect(() => verify(expired)).toThrow();
    expect(() => verify(expired)).toThrow(); // and it was not kept
  });

  it('never takes a tampered or foreign token for a kept one', async () => {
    const verify = await createTokenVerifier(publicPem);
    const token = sign(60_000);
    verify(token);
    const [header, payload, signature] = token.split('.');
    const flipped = `${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(() => verify(`${header}.${payload}.${flipped}`)).toThrow();
    const foreign = sign(60_000, generateKeyPairSync('ed25519').privateKey);
    expect(() => verify(foreign)).toThrow();
    expect(verify(token).sub).toBe('user-1');
  });
});
