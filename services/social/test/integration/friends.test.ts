import { describe, expect, it } from 'vitest';
import { friendshipId, SocialMessages } from '@wayfarer/contracts';
import { as, outboxDrained, publishedEvents, type Harness, socialPerFile } from './harness';

let h: Harness;
socialPerFile((harness) => (h = harness));

describe('a friend request', () => {
  it('is sent, listed for the addressee, accepted into a friendship on both sides, then ended', async () => {
    const ann = await h.register('Ann Lee');
    const bob = await h.register('Bob Stone');

    const sent = await h.addFriend(ann, bob);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ status: 'requested', message: SocialMessages.requestSent });
    // asking again answers the same and writes nothing
    const before = await h.counts();
    const again = await h.addFriend(ann, bob);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(sent.json());
    expect(await h.counts()).toEqual(before);

    expect(await h.requests(bob)).toEqual([
      { _id: ann, name: 'Ann Lee', picture: `/api/avatars/${ann}/a.webp` },
    ]);
    expect(await h.requests(ann)).toEqual([]);

    const accepted = await h.accept(bob, ann);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toEqual({
      newFriend: { id: ann, name: 'Ann Lee', picture: `/api/avatars/${ann}/a.webp`, trips: [] },
    });
    expect(await h.requests(bob)).toEqual([]);
    expect((await h.friends(bob)).map((f) => f.id)).toEqual([ann]);
    expect((await h.friends(ann)).map((f) => f.id)).toEqual([bob]);
    const userFriends = await h.app.inject({ url: '/api/getUserFriends', headers: as(ann) });
    expect(userFriends.json()).toEqual({
      userId: ann,
      friends: [{ id: bob, name: 'Bob Stone', picture: `/api/avatars/${bob}/a.webp` }],
    });

    // accepting twice: the request is gone
    expect((await h.accept(bob, ann)).statusCode).toBe(404);
    // already friends: 409, nothing written
    const mid = await h.counts();
    const dup = await h.addFriend(bob, ann);
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe(SocialMessages.alreadyFriends);
    expect(await h.counts()).toEqual(mid);

    const removed = await h.unfriend(bob, ann);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await h.friends(ann)).toEqual([]);
    expect(await h.friends(bob)).toEqual([]);
    expect((await h.unfriend(ann, bob)).statusCode).toBe(404);

    // one event per change: requested, created, removed (the repeated request and the refused
    // ones published nothing)
    await outboxDrained(h);
    const events = await publishedEvents([ann, bob]);
    const pair = friendshipId(ann, bob);
    expect(events.map((e) => [e.type, e.aggregateId])).toEqual([
      ['friend.requested', pair],
      ['friendship.created', pair],
      ['friendship.removed', pair],
    ]);
    expect(events[0]!.payload).toMatchObject({ fromUserId: ann, toUserId: bob });
    // bob accepted: notifications tells ann
    expect(events[1]!.payload).toEqual({ userIds: [ann, bob].sort(), by: bob });
  });

  it('declined is gone for good, with no friendship and no event', async () => {
    const cat = await h.register('Cat');
    const dan = await h.register('Dan');
    expect((await h.addFriend(cat, dan)).statusCode).toBe(200);
    const declined = await h.decline(dan, cat);
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json()).toEqual({ message: SocialMessages.requestDeclined });
    expect(await h.requests(dan)).toEqual([]);
    expect(await h.friends(dan)).toEqual([]);
    expect((await h.decline(dan, cat)).statusCode).toBe(404);
    expect((await h.accept(dan, cat)).statusCode).toBe(404);
    await outboxDrained(h);
    expect((await publishedEvents([cat, dan])).map((e) => e.type)).toEqual(['friend.requested']);
  });

  it('to someone who had asked you makes you friends at once', async () => {
    const eve = await h.register('Eve');
    const fay = await h.register('Fay');
    expect((await h.addFriend(eve, fay)).statusCode).toBe(200);
    const back = await h.addFriend(fay, eve);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toEqual({ status: 'friends', message: SocialMessages.nowFriends });
    expect((await h.friends(eve)).map((f) => f.id)).toEqual([fay]);
    expect(await h.requests(fay)).toEqual([]);
    expect(await h.requests(eve)).toEqual([]);
  });

  it('sent both ways at once makes one friendship', async () => {
    const gus = await h.register('Gus');
    const hal = await h.register('Hal');
    const answers = await Promise.all([h.addFriend(gus, hal), h.addFriend(hal, gus)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    expect(answers.map((a) => a.json<{ status: string }>().status).sort()).toEqual([
      'friends',
      'requested',
    ]);
    expect((await h.friends(gus)).map((f) => f.id)).toEqual([hal]);
    await outboxDrained(h);
    const types = (await publishedEvents([gus, hal])).map((e) => e.type);
    expect(types).toEqual(['friend.requested', 'friendship.created']);
  });
});

describe('refused', () => {
  it('a request to yourself (400) or to someone unknown (404), nothing written', async () => {
    const ivy = await h.register('Ivy');
    const before = await h.counts();
    const self = await h.addFriend(ivy, ivy);
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe(SocialMessages.notYourself);
    const unknown = await h.addFriend(ivy, crypto.randomUUID());
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(SocialMessages.userNotFound);
    expect(await h.counts()).toEqual(before);
  });

  it('accepting or declining a request addressed to someone else: 404, nothing changes', async () => {
    const jo = await h.register('Jo');
    const kim = await h.register('Kim');
    const mallory = await h.register('Mallory');
    expect((await h.addFriend(jo, kim)).statusCode).toBe(200);
    const before = await h.counts();
    for (const res of [
      await h.accept(mallory, jo),
      await h.decline(mallory, jo),
      // the sender cannot answer their own request either
      await h.accept(jo, kim),
      await h.decline(jo, kim),
    ]) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().message).toBe(SocialMessages.requestNotFound);
    }
    expect(await h.counts()).toEqual(before);
    expect(await h.requests(kim)).toEqual([expect.objectContaining({ _id: jo })]);
    expect(await h.friends(mallory)).toEqual([]);
    expect(await h.friends(jo)).toEqual([]);
  });

  it('unfriending a stranger: 404, nothing changes', async () => {
    const lu = await h.register('Lu');
    const max = await h.register('Max');
    const before = await h.counts();
    const res = await h.unfriend(lu, max);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(SocialMessages.notFriends);
    expect(await h.counts()).toEqual(before);
  });

  it('every route without the gateway identity proof: 401', async () => {
    for (const [method, url] of [
      ['GET', '/api/friends'],
      ['GET', '/api/friendRequests'],
      ['GET', '/api/getUserFriends'],
      ['GET', '/api/search-users?query=a'],
      ['POST', '/api/add-friend/x'],
      ['POST', '/api/acceptFriend/x'],
      ['POST', '/api/declineFriend/x'],
      ['DELETE', '/api/friends/x'],
    ] as const) {
      const res = await h.rawApp.inject({ method, url, headers: as(crypto.randomUUID()) });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });
});
