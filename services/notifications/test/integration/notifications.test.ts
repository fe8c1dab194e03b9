import { describe, expect, it } from 'vitest';
import {
  DEFAULT_AVATAR,
  FriendshipCreated,
  NotificationMessages,
  roomIdOf,
  Topics,
  TripDeleted,
  UserDeleted,
  UserUpdated,
  type Notification,
} from '@wayfarer/contracts';
import { tablesHolding } from '@wayfarer/test-kit';
import { applied, as, type Harness, notificationsPerFile } from './harness';

// notifications from the other services' events, the bell's API and the erasure

let h: Harness;
notificationsPerFile((harness) => (h = harness));

const kinds = (list: Notification[]) => list.map((n) => [n.kind, n.actor.id]);

describe('each kind from its event', () => {
  it('a friend request tells its addressee, with the asker as auth announced them', async () => {
    const ann = await h.register('Ann', '/api/avatars/ann/a.webp');
    const bob = await h.register('Bob');
    await h.request(ann, bob);
    const [n] = await h.waitFor(bob, 1);
    expect(n).toMatchObject({
      kind: 'friend_request',
      actor: { id: ann, name: 'Ann', picture: '/api/avatars/ann/a.webp' },
      subject: {},
      read: false,
    });
    expect(n!._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(n!.createdAt)).not.toBeNaN();
    expect((await h.page(bob)).unread).toBe(1);
    expect((await h.page(ann)).notifications).toEqual([]);
  });

  it('an accepted request tells the one who asked, and the answered request reads as read', async () => {
    const ann = await h.register('Ann');
    const bob = await h.register('Bob', '');
    await h.request(ann, bob);
    await h.waitFor(bob, 1);
    await h.befriend(ann, bob, bob);
    const [n] = await h.waitFor(ann, 1);
    // a user without a picture shows the default avatar
    expect(n).toMatchObject({
      kind: 'friend_accepted',
      actor: { id: bob, name: 'Bob', picture: DEFAULT_AVATAR },
      read: false,
    });
    const bobs = await h.page(bob);
    expect(bobs.notifications.map((x) => [x.kind, x.read])).toEqual([['friend_request', true]]);
    expect(bobs.unread).toBe(0);
  });

  it('a friendship.created without `by` (older events) tells the one whose request it answered', async () => {
    const ann = await h.register('Ann');
    const bob = await h.register('Bob');
    await h.request(bob, ann);
    await h.waitFor(ann, 1);
    await h.publish(FriendshipCreated, [ann, bob].sort().join('_'), {
      userIds: [ann, bob].sort() as [string, string],
    });
    const [n] = await h.waitFor(bob, 1);
    expect(n).toMatchObject({ kind: 'friend_accepted', actor: { id: ann } });
  });

  it('a message tells the recipient only when they were not in the conversation', async () => {
    const ann = await h.register('Ann');
    const bob = await h.register('Bob');
    const inRoom = await h.message(ann, bob, 'seen live', { inRoom: true });
    await applied(h, inRoom);
    expect((await h.page(bob)).notifications).toEqual([]);

    const away = await h.message(ann, bob, 'Are you there?');
    const [n] = await h.waitFor(bob, 1);
    expect(n).toMatchObject({
      kind: 'message',
      actor: { id: ann, name: 'Ann' },
      subject: {
        roomId: roomIdOf(ann, bob),
        messageId: (away.payload as { messageId: string }).messageId,
        preview: 'Are you there?',
      },
    });
    expect((await h.page(ann)).notifications).toEqual([]);
  });

  it("a friend's new trip tells each friend, never a stranger, never of a private trip", async () => {
    const ann = await h.register('Ann');
    const bob = await h.register('Bob');
    const cat = await h.register('Cat');
    const dan = await h.register('Dan');
    await applied(h, await h.befriend(ann, bob, bob));
    await applied(h, await h.befriend(ann, cat, ann));
    const at = (s: number) => new Date(Date.now() - 60_000 + s * 1000);
    const alps = await h.trip(ann, 'Alps', { at: at(1) });
    const secret = await h.trip(ann, 'Secret', { visibility: 'private', at: at(2) });
    const open = await h.trip(ann, 'Open', { visibility: 'friends', at: at(3) });
    for (const e of [alps, secret, open]) await applied(h, e);

    const trips = (user: string) =>
      h
        .all(user)
        .then((list) => list.filter((n) => n.kind === 'friend_trip').map((n) => n.subject));
    const tripId = (e: typeof alps) => (e.payload as { tripId: string }).tripId;
    for (const friend of [bob, cat]) {
      expect(await trips(friend)).toEqual([
        { tripId: tripId(open), name: 'Open' },
        { tripId: tripId(alps), name: 'Alps' },
      ]);
    }
    expect(await h.all(dan)).toEqual([]);
    expect(await trips(ann)).toEqual([]);

    // renamed: the notifications say the new name; made private or deleted: they go
    const update = (e: typeof alps, name: string, version: number, private_ = false) =>
      h.updateTrip(ann, tripId(e), version, name, private_ ? 'private' : undefined);
    await applied(h, await update(alps, 'Alps in June', 2));
    expect(await trips(bob)).toEqual([
      { tripId: tripId(open), name: 'Open' },
      { tripId: tripId(alps), name: 'Alps in June' },
    ]);
    await applied(h, await update(open, 'Open', 2, true));
    await applied(
      h,
      await h.publish(TripDeleted, tripId(alps), {
        tripId: tripId(alps),
        ownerId: ann,
        destinations: [],
      }),
    );
    expect(await trips(bob)).toEqual([]);
    expect(await trips(cat)).toEqual([]);
  });

  it('a friend removed hears of no later trip', async () => {
    const ann = await h.register('Ann');
    const bob = await h.register('Bob');
    await applied(h, await h.befriend(ann, bob, bob));
    await applied(h, await h.unfriend(ann, bob));
    await applied(h, await h.trip(ann, 'After'));
    expect((await h.all(bob)).filter((n) => n.kind === 'friend_trip')).toEqual([]);
  });
});

describe('replays', () => {
  it('a redelivered event makes no second notification, even once its marker is pruned', async () => {
    const ann = await h.register('Ann');
    const bob = await h.register('Bob');
    await applied(h, await h.befriend(ann, bob, ann));
    const at = (s: number) => new Date(Date.now() + s * 1000);
    const events = [
      [await h.request(ann, bob, at(1)), Topics.socialFriendship],
      [await h.message(ann, bob, 'hello', { at: at(2) }), Topics.chatMessage],
      [await h.trip(ann, 'Twice', { at: at(3) }), Topics.tripsTrip],
    ] as const;
    const before = await h.waitFor(bob, 4);
    for (const [event, topic] of events) await h.republish(event, topic);
    // past the markers' retention (7 days), only the notification's own key stops a replay
    await h.pool.query('DELETE FROM processed_events WHERE event_id = ANY($1::uuid[])', [
      events.map(([e]) => e.id),
    ]);
    for (const [event, topic] of events) await h.republish(event, topic);
    for (const [event] of events) await applied(h, event);
    const after = await h.all(bob);
    expect(after.map((n) => n._id)).toEqual(before.map((n) => n._id));
    expect(kinds(after)).toEqual([
      ['friend_trip', ann],
      ['message', ann],
      ['friend_request', ann],
      ['friend_accepted', ann],
    ]);
  });
});

describe('GET /api/notifications', () => {
  it('pages newest first with an opaque cursor: every notification once, the last page says so', async () => {
    const me = await h.register('Me');
    const friends = [];
    for (let i = 0; i < 7; i++) friends.push(await h.register(`Friend ${i}`));
    // one a second apart, oldest first
    const start = Date.now() - 60_000;
    for (const [i, f] of friends.entries()) await h.request(f, me, new Date(start + i * 1000));
    await h.waitFor(me, 7);

    const seen: string[] = [];
    let cursor: string | null = null;
    const sizes: number[] = [];
    do {
      const query: string = cursor ? `?limit=3&cursor=${encodeURIComponent(cursor)}` : '?limit=3';
      const page = await h.page(me, query);
      expect(page.unread).toBe(7);
      sizes.push(page.notifications.length);
      seen.push(...page.notifications.map((n) => n.actor.id));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(sizes).toEqual([3, 3, 1]);
    expect(seen).toEqual([...friends].reverse());

    // the default page holds them all here; a cursor grants nothing: another user's is empty
    expect((await h.page(me)).notifications).toHaveLength(7);
    const first = await h.page(me, '?limit=2');
    const other = await h.register('Other');
    expect(
      (await h.page(other, `?cursor=${encodeURIComponent(first.nextCursor!)}`)).notifications,
    ).toEqual([]);
  });

  it.each([
    ['?limit=0', `limit: ${NotificationMessages.badLimit}`],
    ['?limit=51', `limit: ${NotificationMessages.badLimit}`],
    ['?limit=ten', `limit: ${NotificationMessages.badLimit}`],
    ['?cursor=not-a-cursor', NotificationMessages.badCursor],
    [
      `?cursor=${Buffer.from('{"at":"x","id":"y"}').toString('base64url')}`,
      NotificationMessages.badCursor,
    ],
  ])('%s: 400 with a clear message', async (query, message) => {
    const res = await h.get('someone', query);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'bad_request', message });
  });

  it('answers 401 without the gateway identity proof', async () => {
    const res = await h.rawApp.inject({ url: '/api/notifications', headers: as('someone') });
    expect(res.statusCode).toBe(401);
    const read = await h.rawApp.inject({
      method: 'POST',
      url: '/api/notifications/read',
      headers: { ...as('someone'), 'content-type': 'application/json' },
      payload: '{"all":true}',
    });
    expect(read.statusCode).toBe(401);
  });
});

describe('POST /api/notifications/read', () => {
  it("marks the caller's own by id or all at once; another user's ids change nothing", async () => {
    const ann = await h.register('Ann');
    const bob = await h.register('Bob');
    const cat = await h.register('Cat');
    await h.request(ann, bob);
    await h.request(cat, bob);
    await h.request(bob, ann);
    const bobs = await h.waitFor(bob, 2);
    const [anns] = await h.waitFor(ann, 1);

    // ann names bob's notifications and her own: only hers changes
    const res = await h.markRead(ann, { ids: [...bobs.map((n) => n._id), anns!._id] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ unread: 0 });
    expect((await h.page(ann)).notifications.map((n) => n.read)).toEqual([true]);
    expect((await h.page(bob)).unread).toBe(2);

    const one = await h.markRead(bob, { ids: [bobs[1]!._id] });
    expect(one.json()).toEqual({ unread: 1 });
    const all = await h.markRead(bob, { all: true });
    expect(all.json()).toEqual({ unread: 0 });
    expect((await h.page(bob)).notifications.map((n) => n.read)).toEqual([true, true]);
  });

  it.each([
    ['no body fields', {}],
    ['both', { ids: ['00000000-0000-4000-8000-000000000000'], all: true }],
    ['all: false', { all: false }],
    ['an empty list', { ids: [] }],
    ['not UUIDs', { ids: ['x'] }],
    ['too many', { ids: Array.from({ length: 101 }, () => crypto.randomUUID()) }],
    ['another field', { ids: ['00000000-0000-4000-8000-000000000000'], userId: 'x' }],
  ])('%s: 400, nothing changed', async (_, body) => {
    const ann = await h.register('Ann');
    await h.request(await h.register('Bob'), ann);
    await h.waitFor(ann, 1);
    const res = await h.markRead(ann, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'bad_request', message: NotificationMessages.badRead });
    expect((await h.page(ann)).unread).toBe(1);
  });
});

describe('auth events', () => {
  it('a new name and picture show on the notifications the user acted in', async () => {
    const ann = await h.register('Ann Before');
    const bob = await h.register('Bob');
    await h.request(ann, bob);
    await h.waitFor(bob, 1);
    await applied(
      h,
      await h.publish(UserUpdated, ann, {
        userId: ann,
        name: 'Ann After',
        profilePicture: '/api/avatars/ann/b.webp',
      }),
    );
    expect((await h.page(bob)).notifications[0]!.actor).toEqual({
      id: ann,
      name: 'Ann After',
      picture: '/api/avatars/ann/b.webp',
    });
  });

  it('user.deleted erases their notifications, those they acted in, and them; later events name nobody', async () => {
    const gone = await h.register('Gone Soon');
    const bob = await h.register('Bob Stays');
    await applied(h, await h.befriend(gone, bob, bob));
    await h.request(bob, gone);
    await h.message(gone, bob, 'bye');
    await h.trip(gone, 'Last trip');
    await h.waitFor(gone, 2);
    await h.waitFor(bob, 2);

    await applied(h, await h.publish(UserDeleted, gone, { userId: gone }));
    expect(await h.all(gone)).toEqual([]);
    expect(await h.all(bob)).toEqual([]);
    // an event of theirs still in flight on another topic makes nothing
    await applied(h, await h.message(gone, bob, 'late'));
    await applied(h, await h.request(bob, gone));
    expect(await h.all(bob)).toEqual([]);
    expect(await tablesHolding(h.pool, [gone])).toEqual([]);
  });
});
