import { generateKeyPairSync } from 'node:crypto';
import { createVerifier } from 'fast-jwt';
import { describe, expect, it } from 'vitest';
import {
  SESSION_ALGORITHM,
  SESSION_AUDIENCE,
  SESSION_ISSUER,
  SESSION_TTL_SECONDS,
} from '@wayfarer/contracts';
import { revocationExpiresAt, revocationTtlSeconds, sessionClaims } from '../../src/domain/session';
import { createSessionIssuer } from '../../src/domain/token';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const publicPem = publicKey.export({ format: 'pem', type: 'spki' }).toString();

describe('session claims', () => {
  it('has sub, a random jti, issuer, audience and exp = iat + TTL', () => {
    const now = new Date('2026-01-02T03:04:05.678Z');
    const a = sessionClaims('user-1', now);
    const b = sessionClaims('user-1', now);
    expect(a).toMatchObject({
      sub: 'user-1',
      iss: SESSION_ISSUER,
      aud: SESSION_AUDIENCE,
      iat: 1767323045,
      exp: 1767323045 + SESSION_TTL_SECONDS,
    });
    expect(a.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.jti).not.toBe(b.jti);
  });
});

describe('session tokens', () => {
  const issue = createSessionIssuer(privateKey);

  it('are EdDSA JWTs the gateway verifies with the public key', () => {
    const { token, claims } = issue('user-42');
    const header = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as {
      alg: string;
    };
    expect(header.alg).toBe(SESSION_ALGORITHM);
    const verify = createVerifier({
      key: publicPem,
      algorithms: [SESSION_ALGORITHM],
      allowedIss: SESSION_ISSUER,
      allowedAud: SESSION_AUDIENCE,
      requiredClaims: ['sub', 'jti', 'exp', 'iss', 'aud'],
    });
    const payload = verify(token) as Record<string, unknown>;
    expect(payload).toEqual({ ...claims });
    expect(payload.sub).toBe('user-42');
    expect(claims.exp - Math.floor(Date.now() / 1000)).toBeGreaterThan(SESSION_TTL_SECONDS - 5);
  });

  it('do not verify with another key', () => {
    const other = generateKeyPairSync('ed25519')
      .publicKey.export({ format: 'pem', type: 'spki' })
      .toString();
    const verify = createVerifier({ key: other, algorithms: [SESSION_ALGORITHM] });
    expect(() => verify(issue('user-42').token)).toThrow();
  });

  it('refuse a key that is not an Ed25519 private key', () => {
    expect(() => createSessionIssuer(publicKey)).toThrow(/Ed25519 private key/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    expect(() => createSessionIssuer(rsa)).toThrow(/Ed25519 private key/);
  });
});

describe('revocation TTL', () => {
  const now = new Date(1_000_000 * 1000);
  it('lasts until the session expires', () => {
    expect(revocationTtlSeconds(1_000_000 + 3600, now)).toBe(3600);
  });
  it('is 0 for an expired session and the full TTL when unknown', () => {
    expect(revocationTtlSeconds(1_000_000 - 5, now)).toBe(0);
    expect(revocationTtlSeconds(undefined, now)).toBe(SESSION_TTL_SECONDS);
  });
  it('never exceeds the session lifetime', () => {
    expect(revocationTtlSeconds(1_000_000 + 10 * SESSION_TTL_SECONDS, now)).toBe(
      SESSION_TTL_SECONDS,
    );
  });
});

describe('revocation expiry', () => {
  const now = new Date(1_000_000 * 1000 + 400);
  it('is the session expiry, capped at a full lifetime from now', () => {
    expect(revocationExpiresAt(1_000_000 + 3600, now)).toBe(1_000_000 + 3600);
    expect(revocationExpiresAt(undefined, now)).toBe(1_000_000 + SESSION_TTL_SECONDS);
    expect(revocationExpiresAt(1_000_000 + 10 * SESSION_TTL_SECONDS, now)).toBe(
      1_000_000 + SESSION_TTL_SECONDS,
    );
  });
  it('is null for an expired session', () => {
    expect(revocationExpiresAt(1_000_000 - 5, now)).toBeNull();
  });
});
