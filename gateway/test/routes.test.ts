import { describe, expect, it } from 'vitest';
import { PROXY_ROUTES, routeFor } from '../src/routes';
import { upstreamHeaders } from '../src/session';

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
    ];
    for (const [path, service] of cases) expect(routeFor(path)?.service, path).toBe(service);
  });

  it('does not match a longer word that merely starts with a prefix', () => {
    expect(routeFor('/api/tripsx')).toBeNull();
    expect(routeFor('/api/friendsList')).toBeNull();
    expect(routeFor('/nope')).toBeNull();
  });

  it('keeps only login, register public and logout optional', () => {
    const open = PROXY_ROUTES.filter((r) => r.access !== 'required').map(
      (r) => `${r.prefix}:${r.access}`,
    );
    expect(open.sort()).toEqual([
      '/api/login:public',
      '/api/logout:optional',
      '/api/register:public',
    ]);
  });
});

describe('upstream headers', () => {
  it('drops client-sent identity headers, whatever their case', () => {
    const out = upstreamHeaders(
      { 'x-user-id': 'attacker', 'X-Session-Id': 'forged', accept: 'application/json' },
      null,
      {},
    );
    expect(out).toEqual({ accept: 'application/json' });
  });

  it('sets the verified identity', () => {
    const out = upstreamHeaders(
      { 'x-user-id': 'attacker' },
      { userId: 'u1', sessionId: 's1', expires: 99 },
      {},
    );
    expect(out['x-user-id']).toBe('u1');
    expect(out['x-session-id']).toBe('s1');
    expect(out['x-session-exp']).toBe('99');
  });
});
