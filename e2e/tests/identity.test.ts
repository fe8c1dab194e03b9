import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IdentityHeaders, roomIdOf } from '@wayfarer/contracts';
import { gatewayHeaders, testInfra } from '@wayfarer/test-kit';
import { api, createTrip, signUp, type Account, type TripSummary } from '../support/api';
import { uniqueEmail } from '../support/browser';
import { asGateway, serviceUrl, type ServiceName } from '../support/identity';

/**
 * Reaching a service's port is not enough to act as somebody: every service of the stack
 * refuses a request without the gateway's identity proof (a forged `x-user-id`, alone or with a
 * forged proof) with a 401, while the same request through the gateway succeeds. And auth
 * keys its login throttle on the client address the gateway proved, never on a client's
 * X-Forwarded-For.
 */

const GATEWAY_ONLY = /^This service only answers requests forwarded by the gateway/;

let victim: Account;
let trip: TripSummary;
let destinationId: string;
const JOURNAL = 'Written by the owner.';
let placeId: string;
const ITINERARY = ['Planned by the owner.'];
let friend: Account;
/** Her conversation with her friend (chat answers it only to the two of them). */
let roomId: string;

const saveItinerary = (itinerary: string[]) =>
  api('/api/itinerary', victim, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ bucketListId: placeId, itinerary }),
  });

beforeAll(async () => {
  victim = await signUp('Victim', 'identity');
  trip = await createTrip(victim, 'Private trip', [
    ['Lisbon, Portugal', '38.72', '-9.14', '2026-04-01', '2026-04-04'],
  ]);
  destinationId = trip.destinations[0]!._id;
  // journal learns the destination's owner from trips' event, then the owner writes
  await vi.waitFor(
    async () => {
      const res = await api(`/api/journal/${destinationId}`, victim);
      if (res.status !== 200) throw new Error(`journal answers ${res.status}`);
    },
    { timeout: 30_000, interval: 200 },
  );
  const saved = await api('/api/journal', victim, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ destinationId, content: JOURNAL }),
  });
  expect(saved.status).toBe(200);
  const place = await api('/api/bucketlist', victim, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ place: 'Porto, Portugal', latitude: 41.15, longitude: -8.61 }),
  });
  expect(place.status).toBe(201);
  placeId = ((await place.json()) as { data: { _id: string } }).data._id;
  expect((await saveItinerary(ITINERARY)).status).toBe(200);

  // a friend, through social's routes: chat learns the friendship from social's event, and
  // then answers her conversation with that friend through the gateway
  friend = await signUp('Friend', 'identity');
  roomId = roomIdOf(victim.userId, friend.userId);
  await vi.waitFor(
    async () => {
      // social knows her once auth's user.registered reached it (404 until then)
      const res = await api(`/api/add-friend/${friend.userId}`, victim, { method: 'POST' });
      if (res.status !== 200) throw new Error(`add-friend answers ${res.status}`);
    },
    { timeout: 30_000, interval: 200 },
  );
  await vi.waitFor(
    async () => {
      const res = await api(`/api/acceptFriend/${victim.userId}`, friend, { method: 'POST' });
      if (res.status !== 200) throw new Error(`acceptFriend answers ${res.status}`);
    },
    { timeout: 30_000, interval: 200 },
  );
  await vi.waitFor(
    async () => {
      const res = await api(`/api/conversation/${roomId}`, victim);
      if (res.status !== 200) throw new Error(`conversation answers ${res.status}`);
    },
    { timeout: 30_000, interval: 200 },
  );
}, 120_000);

interface Attack {
  service: ServiceName;
  method: 'GET' | 'POST';
  path: () => string;
  body?: () => string;
}

/** What an attacker on the network would do to the victim's data on each service. */
const attacks: [string, Attack][] = [
  ['auth: read her profile', { service: 'auth', method: 'GET', path: () => '/api/userDetails' }],
  ['trips: list her trips', { service: 'trips', method: 'GET', path: () => '/api/mytrips' }],
  [
    'trips: fetch her photo',
    { service: 'trips', method: 'GET', path: () => trip.destinations[0]!.photos[0]! },
  ],
  [
    'journal: overwrite her journal',
    {
      service: 'journal',
      method: 'POST',
      path: () => '/api/journal',
      body: () => JSON.stringify({ destinationId, content: 'overwritten by an attacker' }),
    },
  ],
  [
    'bucketlist: list her places',
    { service: 'bucketlist', method: 'GET', path: () => '/api/bucketlist' },
  ],
  [
    'bucketlist: overwrite her itinerary',
    {
      service: 'bucketlist',
      method: 'POST',
      path: () => '/api/itinerary',
      body: () => JSON.stringify({ bucketListId: placeId, itinerary: ['by an attacker'] }),
    },
  ],
  [
    'social: list her friends and their trips',
    { service: 'social', method: 'GET', path: () => '/api/friends' },
  ],
  [
    'social: read the friend requests sent to her',
    { service: 'social', method: 'GET', path: () => '/api/friendRequests' },
  ],
  // both chat instances of the stack (the gateway sends /api/conversation to the first)
  ...(['chat', 'chat2'] as const).map((service): [string, Attack] => [
    `${service}: read her conversation with her friend`,
    { service, method: 'GET', path: () => `/api/conversation/${roomId}` },
  ]),
  [
    'places: search as her',
    { service: 'places', method: 'GET', path: () => '/api/places?query=lisbon' },
  ],
];

const send = (url: string, attack: Attack, headers: Record<string, string>) =>
  fetch(url, {
    method: attack.method,
    headers: attack.body ? { ...headers, 'content-type': 'application/json' } : headers,
    body: attack.body?.(),
  });

describe('a service port reached directly', () => {
  it.each(attacks)(
    '%s: 401 with a forged x-user-id, with or without a forged proof',
    async (_name, attack) => {
      const url = serviceUrl(attack.service, attack.path());
      const forgedIdentity = {
        [IdentityHeaders.userId]: victim.userId,
        [IdentityHeaders.clientIp]: '127.0.0.1',
      };
      const forgeries: Record<string, string>[] = [
        forgedIdentity,
        { ...forgedIdentity, [IdentityHeaders.proof]: `v1.9999999999.${'A'.repeat(43)}` },
        // a real-looking proof signed with a secret that is not the stack's
        gatewayHeaders(attack.method, attack.path(), { userId: victim.userId }, 'x'.repeat(48)),
        // a genuine proof of an anonymous request, with her id added
        {
          ...asGateway(attack.method, attack.path()),
          [IdentityHeaders.userId]: victim.userId,
        },
      ];
      for (const headers of forgeries) {
        const res = await send(url, attack, headers);
        expect(res.status, JSON.stringify(headers)).toBe(401);
        const body = (await res.json()) as { error: string; message: string };
        expect(body.error).toBe('unauthorized');
        expect(body.message).toMatch(GATEWAY_ONLY);
      }
    },
  );

  it.each(attacks)('%s: succeeds through the gateway with her session', async (_name, attack) => {
    const res = await api(attack.path(), victim, {
      method: attack.method,
      ...(attack.body
        ? { headers: { 'content-type': 'application/json' }, body: attack.body() }
        : {}),
    });
    expect(res.status).toBe(200);
    if (attack.service === 'journal') {
      // put it back: the next checks read the owner's text
      const restored = await api('/api/journal', victim, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ destinationId, content: JOURNAL }),
      });
      expect(restored.status).toBe(200);
    }
    if (attack.service === 'bucketlist' && attack.method === 'POST') {
      expect((await saveItinerary(ITINERARY)).status).toBe(200);
    }
  });

  it('changed nothing: her journal and her itinerary still hold her text', async () => {
    const res = await api(`/api/journal/${destinationId}`, victim);
    expect(((await res.json()) as { content: string }).content).toBe(JOURNAL);
    const itinerary = await api(`/api/itinerary/${placeId}`, victim);
    expect(((await itinerary.json()) as { itinerary: string[] }).itinerary).toEqual(ITINERARY);
  });

  it('a proof the gateway signed is accepted on the port, for its own request only', async () => {
    const path = '/api/mytrips';
    const headers = asGateway('GET', path, { userId: victim.userId });
    const ok = await fetch(serviceUrl('trips', path), { headers });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { _id: string }[]).map((t) => t._id)).toContain(trip._id);
    // the same proof on another route of the same service
    const other = await fetch(serviceUrl('trips', `/api/trips/${trip._id}`), { headers });
    expect(other.status).toBe(401);
  });

  it('the probes answer without a proof', async () => {
    const services = [
      'auth',
      'trips',
      'bucketlist',
      'social',
      'journal',
      'chat',
      'chat2',
      'places',
    ] as const;
    for (const service of services) {
      expect((await fetch(serviceUrl(service, '/healthz'))).status, service).toBe(200);
    }
  });
});

describe("auth's login throttle", () => {
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(testInfra().redisUrl);
  });
  afterAll(async () => {
    await redis?.quit();
  });

  it('counts a failed login against the address the gateway saw, not a forged X-Forwarded-For', async () => {
    const forged = `203.0.113.${1 + Math.floor(Math.random() * 250)}`;
    const failures = (address: string) => redis.get(`auth:login-failures:ip:${address}`);
    const before = Number((await failures('127.0.0.1')) ?? 0);
    const res = await api('/api/login', undefined, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': forged },
      body: JSON.stringify({ email: uniqueEmail('identity'), password: 'not the password' }),
    });
    expect(res.status).toBe(401);
    // the e2e gateway trusts no proxy: the address is the loopback client's own
    expect(Number(await failures('127.0.0.1'))).toBeGreaterThan(before);
    expect(await failures(forged)).toBeNull();
  });
});
