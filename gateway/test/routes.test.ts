import { describe, expect, it } from 'vitest';
import {
  BodyLimits,
  ImportLimits,
  registerBodyMaxBytes,
  TripLimits,
  tripBodyMaxBytes,
} from '@wayfarer/contracts';
import { IdentityProofMinter, verifyIdentityProof } from '@wayfarer/service-kit';
import { TEST_IDENTITY_PROOF_SECRET } from '@wayfarer/test-kit';
import { bodyTooLargeMessage, maxBodyBytesFor, PROXY_ROUTES, routeFor } from '../src/routes';
import { upstreamHeaders, type VerifiedSession } from '../src/session';

describe('proxy table', () => {
  it('maps every path of the spec /api table to its service', () => {
    const cases: [string, string][] = [
      ['/api/register', 'auth'],
      ['/api/login', 'auth'],
      ['/api/logout', 'auth'],
      ['/api/protected', 'auth'],
      ['/api/userDetails', 'auth'],
      ['/api/mytrips', 'trips'],
      ['/api/trips', 'trips'],
      ['/api/trips/abc', 'trips'],
      ['/api/import', 'trips'],
      ['/api/export', 'trips'],
      ['/api/bucketlist/42', 'bucketlist'],
      ['/api/itinerary/42', 'bucketlist'],
      ['/api/friends', 'social'],
      ['/api/friendRequests', 'social'],
      ['/api/acceptFriend/1', 'social'],
      ['/api/declineFriend/1', 'social'],
      ['/api/getUserFriends', 'social'],
      ['/api/search-users?query=ann', 'social'],
      ['/api/add-friend/1', 'social'],
      ['/api/journal/d1', 'journal'],
      ['/api/conversation/a_b', 'chat'],
      ['/api/places?query=par', 'places'],
      ['/api/shared/tok', 'trips'],
      ['/api/shared/tok/photos/p1', 'trips'],
      ['/api/stats', 'social'],
      ['/api/stats/friends/u1', 'social'],
    ];
    for (const [path, service] of cases) expect(routeFor(path)?.service, path).toBe(service);
  });

  it('does not match a longer word that merely starts with a prefix', () => {
    expect(routeFor('/api/tripsx')).toBeNull();
    expect(routeFor('/api/friendsList')).toBeNull();
    expect(routeFor('/nope')).toBeNull();
  });

  it('keeps only login, register, share links public and logout optional', () => {
    const open = PROXY_ROUTES.filter((r) => r.access !== 'required').map(
      (r) => `${r.prefix}:${r.access}`,
    );
    expect(open.sort()).toEqual([
      '/api/login:public',
      '/api/logout:optional',
      '/api/register:public',
      '/api/shared:public',
    ]);
  });
});

describe('body caps', () => {
  const capOf = (path: string) => maxBodyBytesFor(routeFor(path)!);

  it('come from contracts: the largest legal form of each route', () => {
    expect(capOf('/api/trips')).toBe(tripBodyMaxBytes);
    expect(capOf('/api/register')).toBe(registerBodyMaxBytes);
    expect(capOf('/api/login')).toBe(BodyLimits.login);
    expect(capOf('/api/import')).toBe(BodyLimits.import);
    // an import answers once its photos went through the image pipeline
    expect(routeFor('/api/import')!.timeoutMs).toBe(ImportLimits.answerTimeoutMs);
    for (const path of ['/api/journal', '/api/trips/abc/x', '/api/places', '/api/logout']) {
      const route = routeFor(path)!;
      if (route.prefix === '/api/trips') continue;
      expect(capOf(path), path).toBe(BodyLimits.default);
    }
  });

  it('let a trip with all its photos through: photos, text and framing', () => {
    // the old hand-written 200 MiB refused nothing a trip could hold, but refused nothing else
    // either; the cap is now the photos' total plus the form's largest text and framing
    const text = capOf('/api/trips') - TripLimits.photosTotalMaxBytes;
    expect(text).toBeGreaterThan(TripLimits.destinationsMax * 3 * TripLimits.storyMax);
    expect(text).toBeLessThan(4 * 1024 * 1024);
  });

  it('are told in the 413 answer in MiB or KiB and in bytes', () => {
    expect(bodyTooLargeMessage(108_612_393)).toBe(
      'The request body is too large: this route accepts at most 103.6 MiB (108612393 bytes).',
    );
    expect(bodyTooLargeMessage(3086)).toBe(
      'The request body is too large: this route accepts at most 3.0 KiB (3086 bytes).',
    );
  });
});

describe('upstream headers', () => {
  const secret = Buffer.from(TEST_IDENTITY_PROOF_SECRET);
  const forwarded = (session: VerifiedSession | null = null) => ({
    session,
    clientIp: '203.0.113.7',
    method: 'GET',
    path: '/api/mytrips',
  });

  it('drops client-sent identity headers and proofs, whatever their case', () => {
    const out = upstreamHeaders(
      {
        'x-user-id': 'attacker',
        'X-Session-Id': 'forged',
        'X-Identity-Proof': 'v1.1.forged',
        'x-client-ip': '10.0.0.1',
        accept: 'application/json',
      },
      forwarded(),
      new IdentityProofMinter(secret),
      {},
    );
    expect(Object.keys(out).sort()).toEqual(['accept', 'x-client-ip', 'x-identity-proof']);
    expect(out['x-client-ip']).toBe('203.0.113.7');
    expect(out['x-identity-proof']).not.toBe('v1.1.forged');
  });

  it('sets the verified identity and a proof of it for this method and path', () => {
    const out = upstreamHeaders(
      { 'x-user-id': 'attacker' },
      forwarded({ userId: 'u1', sessionId: 's1', expires: 99 }),
      new IdentityProofMinter(secret),
      {},
    ) as Record<string, string>;
    expect(out['x-user-id']).toBe('u1');
    expect(out['x-session-id']).toBe('s1');
    expect(out['x-session-exp']).toBe('99');
    expect(
      verifyIdentityProof({ method: 'GET', url: '/api/mytrips', headers: out }, secret),
    ).toEqual({
      ok: true,
      identity: { userId: 'u1', sessionId: 's1', sessionExpires: 99, clientIp: '203.0.113.7' },
    });
  });
});
