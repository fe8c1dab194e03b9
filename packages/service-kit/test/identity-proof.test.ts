import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { IdentityHeaders } from '@wayfarer/contracts';
import { ConfigError, loadConfig } from '../src/config';
import {
  ensureDevIdentitySecret,
  IDENTITY_PROOF_TTL_SECONDS,
  identityProofEnv,
  IDENTITY_PROOF_REUSE_SECONDS,
  identityProofHeaders,
  IdentityProofMinter,
  KNOWN_DEFAULT_IDENTITY_PROOF_SECRETS,
  loadIdentityProofSecret,
  mintIdentityProof,
  verifyIdentityProof,
  type ProvenIdentity,
} from '../src/identity-proof';

const secret = Buffer.from('a'.repeat(32) + '-unit-test-secret');
const now = Date.UTC(2026, 4, 1, 12, 0, 0);
const alice: ProvenIdentity = {
  userId: 'alice',
  sessionId: 'session-1',
  sessionExpires: 1_900_000_000,
  clientIp: '203.0.113.7',
};
const scope = { method: 'GET', path: '/api/mytrips' };

/** The request a service receives from the gateway for alice. */
function forwarded(identity: ProvenIdentity = alice, mintedAt = now) {
  return {
    method: 'GET',
    url: '/api/mytrips?x=1',
    headers: identityProofHeaders(identity, scope, secret, mintedAt) as Record<string, string>,
  };
}

describe('identity proof', () => {
  it('verifies what the gateway minted, and gives back the identity', () => {
    expect(verifyIdentityProof(forwarded(), secret, now)).toEqual({ ok: true, identity: alice });
  });

  it('carries an empty user on a public route, with the client address', () => {
    const anonymous = { userId: null, sessionId: null, sessionExpires: null, clientIp: '::1' };
    const request = forwarded(anonymous);
    expect(request.headers[IdentityHeaders.userId]).toBeUndefined();
    expect(verifyIdentityProof(request, secret, now)).toEqual({ ok: true, identity: anonymous });
  });

  it('refuses a request without a proof (a forged x-user-id alone)', () => {
    const check = verifyIdentityProof(
      { method: 'GET', url: '/api/mytrips', headers: { [IdentityHeaders.userId]: 'alice' } },
      secret,
      now,
    );
    expect(check).toMatchObject({ ok: false, reason: 'missing' });
  });

  it('refuses a proof made with another secret', () => {
    const other = Buffer.from('b'.repeat(48));
    const request = {
      ...forwarded(),
      headers: identityProofHeaders(alice, scope, other, now) as Record<string, string>,
    };
    expect(verifyIdentityProof(request, secret, now)).toMatchObject({
      ok: false,
      reason: 'invalid',
    });
  });

  it('refuses an expired proof, and accepts it until then', () => {
    const request = forwarded();
    const expiry = now + IDENTITY_PROOF_TTL_SECONDS * 1000;
    expect(verifyIdentityProof(request, secret, expiry - 1).ok).toBe(true);
    expect(verifyIdentityProof(request, secret, expiry)).toMatchObject({
      ok: false,
      reason: 'expired',
    });
  });

  it('refuses a proof whose expiry was moved', () => {
    const request = forwarded();
    const proof = request.headers[IdentityHeaders.proof]!;
    const [version, exp, mac] = proof.split('.');
    const moved = `${version}.${Number(exp) + 3600}.${mac}`;
    const check = verifyIdentityProof(
      { ...request, headers: { ...request.headers, [IdentityHeaders.proof]: moved } },
      secret,
      now + 120_000,
    );
    expect(check).toMatchObject({ ok: false, reason: 'invalid' });
  });

  it.each([
    [IdentityHeaders.userId, 'mallory'],
    [IdentityHeaders.sessionId, 'session-2'],
    [IdentityHeaders.sessionExpires, '1900000001'],
    [IdentityHeaders.clientIp, '198.51.100.1'],
  ])('refuses a proof whose %s was changed', (header, value) => {
    const request = forwarded();
    const tampered = { ...request, headers: { ...request.headers, [header]: value } };
    expect(verifyIdentityProof(tampered, secret, now)).toMatchObject({
      ok: false,
      reason: 'invalid',
    });
  });

  it('refuses a user id added to an anonymous proof, and one removed from a signed-in one', () => {
    const anonymous = forwarded({ ...alice, userId: null, sessionId: null, sessionExpires: null });
    anonymous.headers[IdentityHeaders.userId] = 'alice';
    expect(verifyIdentityProof(anonymous, secret, now).ok).toBe(false);
    const signedIn = forwarded();
    delete signedIn.headers[IdentityHeaders.userId];
    expect(verifyIdentityProof(signedIn, secret, now).ok).toBe(false);
  });

  it('binds the method and the path, not the query string', () => {
    const request = forwarded();
    expect(verifyIdentityProof({ ...request, method: 'DELETE' }, secret, now).ok).toBe(false);
    expect(verifyIdentityProof({ ...request, url: '/api/trips/1' }, secret, now).ok).toBe(false);
    expect(verifyIdentityProof({ ...request, url: '/api/mytrips' }, secret, now).ok).toBe(true);
  });

  it('binds the canonical form of the path: a parser encoding it on the way changes nothing', () => {
    const signed = (path: string) =>
      identityProofHeaders(alice, { method: 'DELETE', path }, secret, now) as Record<
        string,
        string
      >;
    const check = (signedPath: string, url: string) =>
      verifyIdentityProof({ method: 'DELETE', url, headers: signed(signedPath) }, secret, now).ok;
    // raw braces as Node reads them, encoded as the WHATWG URL parser sends them on
    expect(check('/api/trips/{x}', '/api/trips/%7Bx%7D')).toBe(true);
    expect(check('/api/trips/%7Bx%7D', '/api/trips/{x}')).toBe(true);
    expect(check('/api/conversations/{}/read', '/api/conversations/%7b%7d/read')).toBe(true);
    expect(check('/api/trips/é', '/api/trips/%C3%A9')).toBe(true);
    expect(check('/api/trips/a#b', '/api/trips/a%23b?x=1')).toBe(true);
    // still bound to the path: another one, even a close one, is refused
    expect(check('/api/trips/{x}', '/api/trips/x')).toBe(false);
    expect(check('/api/trips/{x}', '/api/trips/%7Bx%7D/')).toBe(false);
    expect(check('/api/trips/a%2Fb', '/api/trips/a/b')).toBe(false);
  });

  it('refuses malformed proofs and repeated identity headers', () => {
    const request = forwarded();
    for (const proof of ['v1', 'v2.1.abc', `v1.x.${'A'.repeat(43)}`, 'garbage']) {
      const check = verifyIdentityProof(
        { ...request, headers: { ...request.headers, [IdentityHeaders.proof]: proof } },
        secret,
        now,
      );
      expect(check, proof).toMatchObject({ ok: false, reason: 'malformed' });
    }
    const repeated = {
      ...request,
      headers: { ...request.headers, [IdentityHeaders.userId]: ['alice', 'mallory'] },
    };
    expect(verifyIdentityProof(repeated, secret, now)).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
  });

  it('a field cannot be shifted into the next one (no delimiter ambiguity)', () => {
    const proof = mintIdentityProof(
      { userId: 'a', sessionId: 'b|c', sessionExpires: null, clientIp: '1.2.3.4' },
      scope,
      secret,
      now,
    );
    const shifted = {
      method: 'GET',
      url: scope.path,
      headers: {
        [IdentityHeaders.proof]: proof,
        [IdentityHeaders.userId]: 'a|b',
        [IdentityHeaders.sessionId]: 'c',
        [IdentityHeaders.clientIp]: '1.2.3.4',
      },
    };
    expect(verifyIdentityProof(shifted, secret, now).ok).toBe(false);
  });
});

describe('identity proof secret', () => {
  const keyDir = () => mkdtempSync(join(tmpdir(), 'wayfarer-keys-'));

  it('comes from IDENTITY_PROOF_SECRET when set', () => {
    const value = 'z'.repeat(40);
    expect(
      loadIdentityProofSecret({ IDENTITY_PROOF_SECRET: value, NODE_ENV: 'production' }),
    ).toEqual(Buffer.from(value));
  });

  it('names the variable when it is too short (env validation and loader)', () => {
    const schema = z.object(identityProofEnv);
    expect(() => loadConfig(schema, { IDENTITY_PROOF_SECRET: 'short' })).toThrow(
      /IDENTITY_PROOF_SECRET is invalid: must be at least 32 bytes/,
    );
    expect(() => loadIdentityProofSecret({ IDENTITY_PROOF_SECRET: 'short' })).toThrow(ConfigError);
  });

  it('is required in production, even with a key dir', () => {
    expect(() =>
      loadIdentityProofSecret({ NODE_ENV: 'production', SESSION_KEY_DIR: keyDir() }),
    ).toThrow(/IDENTITY_PROOF_SECRET is missing \(required when NODE_ENV=production/);
  });

  it('refuses a well-known default in production, naming the variable', () => {
    for (const value of KNOWN_DEFAULT_IDENTITY_PROOF_SECRETS) {
      expect(() =>
        loadIdentityProofSecret({ IDENTITY_PROOF_SECRET: value, NODE_ENV: 'production' }),
      ).toThrow(/^Invalid configuration:\n {2}- IDENTITY_PROOF_SECRET is a well-known default/);
      // a local try-out may still use it
      expect(loadIdentityProofSecret({ IDENTITY_PROOF_SECRET: value })).toEqual(Buffer.from(value));
    }
    expect(KNOWN_DEFAULT_IDENTITY_PROOF_SECRETS).toContain(
      'wayfarer-local-identity-proof-secret-change-me',
    );
  });

  it('comes from IDENTITY_PROOF_SECRET_FILE (a mounted secret), under the same rules', () => {
    const dir = keyDir();
    const file = join(dir, 'secret');
    writeFileSync(file, `${'s'.repeat(48)}\n`);
    expect(
      loadIdentityProofSecret({ IDENTITY_PROOF_SECRET_FILE: file, NODE_ENV: 'production' }),
    ).toEqual(Buffer.from('s'.repeat(48)));
    // the variable wins over the file
    const value = 'v'.repeat(40);
    expect(
      loadIdentityProofSecret({ IDENTITY_PROOF_SECRET: value, IDENTITY_PROOF_SECRET_FILE: file }),
    ).toEqual(Buffer.from(value));
    writeFileSync(file, KNOWN_DEFAULT_IDENTITY_PROOF_SECRETS[0]!);
    expect(() =>
      loadIdentityProofSecret({ IDENTITY_PROOF_SECRET_FILE: file, NODE_ENV: 'production' }),
    ).toThrow(/IDENTITY_PROOF_SECRET_FILE is a well-known default/);
    writeFileSync(file, 'short');
    expect(() => loadIdentityProofSecret({ IDENTITY_PROOF_SECRET_FILE: file })).toThrow(
      /IDENTITY_PROOF_SECRET_FILE is invalid: must be at least 32 bytes/,
    );
    expect(() =>
      loadIdentityProofSecret({ IDENTITY_PROOF_SECRET_FILE: join(dir, 'missing') }),
    ).toThrow(/IDENTITY_PROOF_SECRET_FILE is invalid: cannot read/);
  });

  it('is missing without a key dir outside production', () => {
    expect(() => loadIdentityProofSecret({})).toThrow(/IDENTITY_PROOF_SECRET is missing/);
  });

  it('is generated once into the key dir locally, private, and shared by every process', () => {
    const dir = keyDir();
    const first = loadIdentityProofSecret({ SESSION_KEY_DIR: dir });
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadIdentityProofSecret({ SESSION_KEY_DIR: dir })).toEqual(first);
    expect(ensureDevIdentitySecret(dir)).toEqual(first);
    const file = join(dir, 'identity-proof.secret');
    expect(readFileSync(file, 'utf8')).toBe(first.toString());
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(loadIdentityProofSecret({ SESSION_KEY_DIR: keyDir() })).not.toEqual(first);
  });
});

describe('IdentityProofMinter (the gateway reuses a proof for the same request for a few seconds)', () => {
  const request = (headers: Record<string, string>, url = '/api/mytrips') => ({
    method: 'GET',
    url,
    headers: headers as Record<string, string>,
  });

  it('reuses the proof of the same identity and request within the reuse window, valid to the end of it', () => {
    const minter = new IdentityProofMinter(secret);
    const first = minter.headers(alice, scope, now);
    const within = now + (IDENTITY_PROOF_REUSE_SECONDS - 1) * 1000;
    expect(minter.headers(alice, scope, within)).toBe(first);
    // what is reused still verifies at the service, with the time it has left
    const lastUse = now + IDENTITY_PROOF_REUSE_SECONDS * 1000;
    expect(verifyIdentityProof(request(first), secret, lastUse)).toEqual({
      ok: true,
      identity: alice,
    });
    expect(
      verifyIdentityProof(request(first), secret, now + IDENTITY_PROOF_TTL_SECONDS * 1000),
    ).toMatchObject({ ok: false, reason: 'expired' });
  });

  it('mints anew past the reuse window, and for another identity, method or path', () => {
    const minter = new IdentityProofMinter(secret);
    const first = minter.headers(alice, scope, now);
    const later = minter.headers(alice, scope, now + (IDENTITY_PROOF_REUSE_SECONDS + 1) * 1000);
    expect(later[IdentityHeaders.proof]).not.toBe(first[IdentityHeaders.proof]);

    const bob = { ...alice, userId: 'bob' };
    const others = [
      minter.headers(bob, scope, now),
      minter.headers({ ...alice, clientIp: '198.51.100.1' }, scope, now),
      minter.headers(alice, { method: 'DELETE', path: '/api/mytrips' }, now),
      minter.headers(alice, { method: 'GET', path: '/api/trips/1' }, now),
    ];
    for (const other of others) {
      expect(other[IdentityHeaders.proof]).not.toBe(first[IdentityHeaders.proof]);
    }
    // each is the proof of its own request, not alice's GET /api/mytrips
    expect(verifyIdentityProof(request(others[3]!, '/api/trips/1'), secret, now)).toMatchObject({
      ok: true,
    });
    expect(verifyIdentityProof(request(others[3]!), secret, now)).toMatchObject({
      ok: false,
      reason: 'invalid',
    });
    expect(verifyIdentityProof(request(others[0]!), secret, now)).toEqual({
      ok: true,
      identity: bob,
    });
  });

  it('keeps at most maxEntries proofs, and its headers cannot be changed by a caller', () => {
    const minter = new IdentityProofMinter(secret, 3);
    for (let i = 0; i < 10; i++)
      minter.headers(alice, { method: 'GET', path: `/api/trips/${i}` }, now);
    expect(minter.size).toBe(3);
    const headers = minter.headers(alice, scope, now);
    expect(Object.isFrozen(headers)).toBe(true);
  });
});
