import { roomIdOf } from '@wayfarer/contracts';
import { describe, expect, it } from 'vitest';
import {
  BUCKET_LIST,
  CONVERSATIONS,
  DEMO_PASSWORD,
  TRIPS,
  USERS,
  type UserKey,
} from '../../scripts/demo/data';
import { seedDemo } from '../../scripts/demo/seed';
import { baseUrl } from '../support/browser';

/**
 * The demo data (`npm run demo:seed`) seeded into the e2e stack through its public
 * API, then checked through the same API as its users see it; a second run makes nothing twice.
 */

/** `expect.poll` with room for a real stack under load (vitest's default is 1 s). */
const eventually = <T>(fn: () => Promise<T> | T, timeout = 15_000) =>
  expect.poll(fn, { timeout, interval: 100 });

async function logIn(email: string): Promise<string> {
  const res = await fetch(`${baseUrl()}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  expect(res.status).toBe(200);
  const raw = res.headers.getSetCookie().find((c) => c.startsWith('wayfarer_session='));
  return raw!.split(';', 1)[0]!;
}

describe('demo seed', () => {
  it('makes friends with trips, photos, journals, bucket lists and conversations; a re-run adds nothing', async () => {
    const first = await seedDemo(baseUrl());
    expect(first.users.map((u) => u.email)).toEqual(USERS.map((u) => u.email));

    const cookies = new Map<UserKey, string>();
    for (const u of USERS) cookies.set(u.key, await logIn(u.email));
    const ids = new Map(first.users.map((u, i) => [USERS[i]!.key, u.id]));
    const get = (path: string, who: UserKey) =>
      fetch(`${baseUrl()}${path}`, { headers: { cookie: cookies.get(who)! } });
    const json = async <T>(path: string, who: UserKey): Promise<T> => {
      const res = await get(path, who);
      expect(res.status, path).toBe(200);
      return (await res.json()) as T;
    };

    // everyone is everyone's friend
    for (const u of USERS) {
      const friends = await json<{ id: string }[]>('/api/friends', u.key);
      const others = USERS.filter((o) => o.key !== u.key).map((o) => ids.get(o.key));
      expect(friends.map((f) => f.id).sort()).toEqual(others.sort());
    }

    // trips with a photo per destination that answers as an image; journals a friend can read
    for (const trip of TRIPS) {
      const mine = await json<
        { name: string; destinations: { _id: string; name: string; photos: string[] }[] }[]
      >('/api/mytrips', trip.owner);
      const saved = mine.find((t) => t.name === trip.name);
      expect(saved, trip.name).toBeDefined();
      expect(saved!.destinations.map((d) => d.name)).toEqual(trip.destinations.map((d) => d.name));
      const friend = USERS.find((u) => u.key !== trip.owner)!.key;
      for (const [i, d] of saved!.destinations.entries()) {
        expect(d.photos).toHaveLength(1); // the list carries the first photo
        const photo = await get(d.photos[0]!, trip.owner);
        expect(photo.status).toBe(200);
        expect(photo.headers.get('content-type')).toMatch(/^image\//);
        expect((await photo.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
        await eventually(
          async () => (await json<{ content: string }>(`/api/journal/${d._id}`, friend)).content,
        ).toBe(trip.destinations[i]!.journal);
      }
    }

    // bucket lists with their itineraries
    for (const item of BUCKET_LIST) {
      const list = await json<{ _id: string; place: string; isVisited: boolean }[]>(
        '/api/bucketlist',
        item.owner,
      );
      const saved = list.find((x) => x.place === item.place);
      expect(saved, item.place).toMatchObject({ isVisited: false });
      const { itinerary } = await json<{ itinerary: string[] }>(
        `/api/itinerary/${saved!._id}`,
        item.owner,
      );
      expect(itinerary).toEqual(item.itinerary);
    }

    // the conversations, in order, seen by both sides
    const history = (room: string, who: UserKey) =>
      json<{ conversation: { messages: { content: string; sender: { _id: string } }[] } }>(
        `/api/conversation/${room}?limit=50`,
        who,
      );
    for (const talk of CONVERSATIONS) {
      const room = roomIdOf(ids.get(talk.between[0])!, ids.get(talk.between[1])!);
      for (const who of talk.between) {
        await eventually(async () =>
          (await history(room, who)).conversation.messages.map((m) => [m.sender._id, m.content]),
        ).toEqual(talk.messages.map(([from, text]) => [ids.get(from), text]));
      }
    }

    // again: everything is found, nothing is made twice
    const again = await seedDemo(baseUrl());
    expect(again.users.map((u) => [u.id, u.created])).toEqual(
      first.users.map((u) => [u.id, false]),
    );
    expect(again.friendships.made).toBe(0);
    expect(again.trips.made).toEqual([]);
    expect(again.trips.existing).toEqual(TRIPS.map((t) => t.name));
    expect(again.bucketList.made).toEqual([]);
    expect(again.conversations.every((c) => c.existing && c.sent === 0)).toBe(true);
    for (const trip of TRIPS) {
      const mine = await json<{ name: string }[]>('/api/mytrips', trip.owner);
      expect(mine.filter((t) => t.name === trip.name)).toHaveLength(1);
    }
    const [a, b] = CONVERSATIONS[0]!.between;
    const room = roomIdOf(ids.get(a)!, ids.get(b)!);
    expect((await history(room, a)).conversation.messages).toHaveLength(
      CONVERSATIONS[0]!.messages.length,
    );
  });
});
