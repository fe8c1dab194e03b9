import { afterAll, describe, expect, it } from 'vitest';
import { AccountMessages, type Friend, type FriendRequest } from '@wayfarer/contracts';
import { localInfra } from '@wayfarer/test-kit';
import { befriend, json, register, say } from '../support/account';
import { api, createTrip } from '../support/api';
import { makePng } from '../support/browser';
import { storesHolding } from '../support/stores';

/**
 * Erasing an account: a user with trips, photos, a journal, a bucket list with an
 * itinerary, a friend, friend requests both ways and messages closes the account while Kafka
 * is really stopped (deploy/local's broker, as auth's outbox test stops it); once Kafka is back
 * no store of the stack holds the user's id or email (every PostgreSQL table, every MongoDB
 * collection, every bucket key, every Redis key: `storesHolding`), their photos are gone, and
 * the friend's list no longer shows them. Kafka's topics keep the event history (not scanned).
 */
let kafkaStopped = false;
afterAll(() => {
  if (kafkaStopped) localInfra('up', 'kafka');
});

const poll = { timeout: 30_000, interval: 250 };
const friendsOf = async (account: Parameters<typeof api>[1]) =>
  ((await (await api('/api/friends', account)).json()) as Friend[]).map((f) => f.id);

describe('closing an account', () => {
  it(
    'erases the user from every store, with Kafka stopped during it',
    { timeout: 300_000 },
    async () => {
      const ada = await register('Ada Leaving', makePng(64));
      const bob = await register('Bob Friend');
      const cat = await register('Cat Asking');
      const dan = await register('Dan Asked');
      await befriend(ada, bob);
      expect((await api(`/api/add-friend/${ada.userId}`, cat, { method: 'POST' })).status).toBe(
        200,
      );
      expect((await api(`/api/add-friend/${dan.userId}`, ada, { method: 'POST' })).status).toBe(
        200,
      );
      const trip = await createTrip(
        ada,
        'Leaving trip',
        [
          ['Lisbon, Portugal', '38.72', '-9.14', '2026-04-01', '2026-04-04'],
          ['Porto, Portugal', '41.15', '-8.61', '2026-04-05', '2026-04-07'],
        ],
        'A story.',
      );
      const lisbon = trip.destinations[0]!;
      await expect
        .poll(async () => (await api(`/api/journal/${lisbon._id}`, ada)).status, poll)
        .toBe(200);
      const journal = await api('/api/journal', ada, {
        method: 'POST',
        ...json({ destinationId: lisbon._id, content: 'My day.', date: new Date().toISOString() }),
      });
      expect(journal.status).toBe(200);
      const place = await api('/api/bucketlist', ada, {
        method: 'POST',
        ...json({ place: 'Kyoto', latitude: 35.01, longitude: 135.77, isVisited: false }),
      });
      expect(place.status).toBe(201);
      const { data: item } = (await place.json()) as { data: { _id: string } };
      const itinerary = await api('/api/itinerary', ada, {
        method: 'POST',
        ...json({ bucketListId: item._id, itinerary: ['Fushimi Inari'] }),
      });
      expect(itinerary.status).toBe(200);
      await say(ada, bob, 'Hello Bob');
      await say(bob, ada, 'Hello Ada');
      // every projection has caught up: Bob sees Ada with her trip
      await expect
        .poll(async () => {
          const friends = (await (await api('/api/friends', bob)).json()) as Friend[];
          return friends.find((f) => f.id === ada.userId)?.trips.map((t) => t._id);
        }, poll)
        .toEqual([trip._id]);

      const ids = [ada.userId, ada.email];
      const photosOf = async () =>
        (await storesHolding([trip._id])).filter((s) => s.startsWith('bucket '));
      // the scan sees her everywhere before: it can fail
      const before = await storesHolding(ids);
      for (const place of [
        'auth_',
        'social_',
        'bucketlist_',
        'trips_',
        'journal_',
        'chat_',
        'avatars-',
      ]) {
        expect(
          before.some((s) => s.includes(place)),
          `${place} in ${before.join(', ')}`,
        ).toBe(true);
      }
      expect(await photosOf()).not.toEqual([]);

      localInfra('down', 'kafka');
      kafkaStopped = true;
      const closed = await api('/api/account', ada, {
        method: 'DELETE',
        ...json({ password: ada.password }),
      });
      expect(closed.status).toBe(200);
      expect(await closed.json()).toEqual({ message: AccountMessages.accountDeleted });
      expect(closed.headers.getSetCookie().some((c) => /^wayfarer_session=;/.test(c))).toBe(true);
      // the session ends at once; the other services have not heard yet
      expect((await api('/api/protected', ada)).status).toBe(401);
      expect(await friendsOf(bob)).toContain(ada.userId);

      localInfra('up', 'kafka');
      kafkaStopped = false;
      await expect.poll(() => storesHolding(ids), { timeout: 180_000, interval: 2000 }).toEqual([]);
      expect(await photosOf()).toEqual([]);
      expect(await friendsOf(bob)).not.toContain(ada.userId);
      const requests = (await (await api('/api/friendRequests', dan)).json()) as FriendRequest[];
      expect(requests.map((r) => r._id)).not.toContain(ada.userId);
      const conversation = await api(
        `/api/conversation/${[ada.userId, bob.userId].sort().join('_')}`,
        bob,
      );
      expect(conversation.status).not.toBe(200);
    },
  );
});
