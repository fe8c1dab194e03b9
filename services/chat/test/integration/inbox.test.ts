import { ObjectId } from 'mongodb';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ChatEvents,
  ChatMessages,
  ChatMessageSent,
  ConversationReadResponse,
  ConversationsResponse,
  DEFAULT_AVATAR,
  IdentityHeaders,
  messagePreview,
  roomIdOf,
  Topics,
  UserUpdated,
  type SendMessageAck,
} from '@wayfarer/contracts';
import { throughGateway } from '@wayfarer/test-kit';
import { emitAck, startTwo, type Chat, type Instance } from './harness';

// the inbox (GET /api/conversations, POST /api/conversations/{roomId}/read), kept by
// chat's own consumer of message.sent; real MongoDB-wire server, Kafka and Redis, two instances

let chat: Chat;
let one: Instance;
let two: Instance;

beforeAll(async () => {
  ({ chat, one, two } = await startTwo());
}, 90_000);
afterAll(() => chat?.close(), 60_000);

const waitOptions = { timeout: 20_000, interval: 50 };
const as = (userId: string) => ({ [IdentityHeaders.userId]: userId });

async function conversations(userId: string, svc: Instance = one) {
  const res = await throughGateway(svc.app).inject({
    url: '/api/conversations',
    headers: as(userId),
  });
  expect(res.statusCode, res.body).toBe(200);
  return ConversationsResponse.parse(res.json());
}

const markRead = (userId: string, roomId: string, svc: Instance = one) =>
  throughGateway(svc.app).inject({
    method: 'POST',
    url: `/api/conversations/${encodeURIComponent(roomId)}/read`,
    headers: as(userId),
  });

/** Waits until `userId`'s inbox passes `check` (the consumer applies message.sent). */
async function inboxOnceIt(
  userId: string,
  check: (inbox: ConversationsResponse) => void,
): Promise<ConversationsResponse> {
  let last: ConversationsResponse = [];
  await vi.waitFor(async () => {
    last = await conversations(userId);
    check(last);
  }, waitOptions);
  return last;
}

const known = (name: string) => chat.known(name, one);

async function socketOf(svc: Instance, userId: string) {
  const socket = chat.socketOf(svc, { userId });
  await chat.connected(socket);
  return socket;
}

async function send(socket: Socket, to: string, text: string) {
  const ack = await emitAck<SendMessageAck>(socket, ChatEvents.sendMessage, { to, text });
  if (!ack.ok) throw new Error(`not sent: ${ack.error}`);
  return ack.message;
}

const friendsOf = (inbox: ConversationsResponse) => inbox.map((c) => c.friend.id);
const unreadOf = (inbox: ConversationsResponse) => inbox.map((c) => [c.friend.id, c.unread]);

describe('GET /api/conversations', () => {
  it('lists every friend newest first with the last message, unread only for the recipient', async () => {
    const [ann, bob, cal, dee] = await Promise.all(['ann', 'bob', 'cal', 'dee'].map(known));
    for (const friend of [bob!, cal!, dee!]) await chat.befriend(ann!, friend, one);
    const sAnn = await socketOf(one, ann!);
    const sBob = await socketOf(two, bob!);
    const sCal = await socketOf(one, cal!);

    await send(sBob, ann!, 'Hi Ann, Bob here.');
    const fromCal = await send(sCal, ann!, 'Cal says hello.');
    const long = 'A long day in Lisbon. '.repeat(10);
    const toDee = await send(sAnn, dee!, long);

    const inbox = await inboxOnceIt(ann!, (list) =>
      expect(friendsOf(list)).toEqual([dee, cal, bob]),
    );
    expect(unreadOf(inbox)).toEqual([
      [dee, 0],
      [cal, 1],
      [bob, 1],
    ]);
    expect(inbox[1]).toEqual({
      roomId: roomIdOf(ann!, cal!),
      friend: { id: cal, name: 'cal', picture: DEFAULT_AVATAR },
      lastMessage: {
        _id: fromCal._id,
        content: 'Cal says hello.',
        timestamp: fromCal.timestamp,
        senderId: cal,
      },
      unread: 1,
    });
    // the preview, not the whole text
    expect(inbox[0]!.lastMessage).toEqual({
      _id: toDee._id,
      content: messagePreview(long.trim()),
      timestamp: toDee.timestamp,
      senderId: ann,
    });
    expect(inbox[0]!.lastMessage.content.length).toBeLessThan(long.trim().length);
    // each side sees the other, read from the other instance too; the sender's count stays 0
    await inboxOnceIt(dee!, (list) => expect(unreadOf(list)).toEqual([[ann, 1]]));
    expect(unreadOf(await conversations(bob!, two))).toEqual([[ann, 0]]);
    expect(unreadOf(await conversations(cal!, two))).toEqual([[ann, 0]]);

    // Bob writes twice more: his conversation comes first, Ann's count grows, his stays 0
    await send(sBob, ann!, 'Are you there?');
    const last = await send(sBob, ann!, 'Call me.');
    const after = await inboxOnceIt(ann!, (list) =>
      expect(list[0]?.lastMessage._id).toBe(last._id),
    );
    expect(unreadOf(after)).toEqual([
      [bob, 3],
      [dee, 0],
      [cal, 1],
    ]);
    expect(unreadOf(await conversations(bob!))).toEqual([[ann, 0]]);
    // nobody else's inbox names any of them
    expect(await conversations(`stranger${chat.suffix}`)).toEqual([]);
  });

  it('follows a friend’s new name and drops the conversation when the friendship ends', async () => {
    const [eva, fay] = await Promise.all(['eva', 'fay'].map(known));
    await chat.befriend(eva!, fay!, one);
    await send(await socketOf(one, fay!), eva!, 'Hello Eva.');
    await inboxOnceIt(eva!, (list) => expect(friendsOf(list)).toEqual([fay]));

    await chat.publish(UserUpdated, fay!, {
      userId: fay!,
      name: 'Fay B.',
      profilePicture: '/api/avatars/fay/b.webp',
    });
    await inboxOnceIt(eva!, (list) =>
      expect(list[0]!.friend).toEqual({
        id: fay,
        name: 'Fay B.',
        picture: '/api/avatars/fay/b.webp',
      }),
    );

    await chat.unfriend(eva!, fay!, one);
    await inboxOnceIt(eva!, (list) => expect(list).toEqual([]));
    expect(await conversations(fay!)).toEqual([]);
  });
});

describe('POST /api/conversations/{roomId}/read', () => {
  it('zeroes only the caller’s own conversation; a later message counts again', async () => {
    const [gil, hal, ida, jon] = await Promise.all(['gil', 'hal', 'ida', 'jon'].map(known));
    await chat.befriend(gil!, hal!, one);
    await chat.befriend(gil!, ida!, one);
    await chat.befriend(ida!, jon!, one);
    const sHal = await socketOf(one, hal!);
    const sIda = await socketOf(two, ida!);
    const sJon = await socketOf(one, jon!);
    await send(sHal, gil!, 'One.');
    await send(sHal, gil!, 'Two.');
    await send(sIda, gil!, 'From Ida.');
    await send(sJon, ida!, 'Jon to Ida.');
    await inboxOnceIt(gil!, (list) =>
      expect(unreadOf(list)).toEqual([
        [ida, 1],
        [hal, 2],
      ]),
    );
    await inboxOnceIt(ida!, (list) =>
      expect(unreadOf(list)).toEqual([
        [jon, 1],
        [gil, 0],
      ]),
    );

    const res = await markRead(gil!, roomIdOf(gil!, hal!), two);
    expect(res.statusCode, res.body).toBe(200);
    expect(ConversationReadResponse.parse(res.json())).toEqual({
      roomId: roomIdOf(gil!, hal!),
      unread: 0,
    });
    // at once (no event in between), and only that conversation
    expect(unreadOf(await conversations(gil!))).toEqual([
      [ida, 1],
      [hal, 0],
    ]);
    expect(unreadOf(await conversations(hal!))).toEqual([[gil, 0]]);
    expect(unreadOf(await conversations(ida!))).toEqual([
      [jon, 1],
      [gil, 0],
    ]);
    // reading again is harmless
    expect((await markRead(gil!, roomIdOf(gil!, hal!))).statusCode).toBe(200);

    // another pair's room: refused, their inbox as it was
    const theirs = await markRead(gil!, roomIdOf(ida!, jon!));
    expect(theirs.statusCode).toBe(403);
    expect(theirs.json()).toMatchObject({ message: ChatMessages.notInRoom });
    expect(unreadOf(await conversations(ida!))).toEqual([
      [jon, 1],
      [gil, 0],
    ]);
    // a room of the caller's without a conversation: 404
    const none = await markRead(gil!, roomIdOf(gil!, jon!));
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject({ message: ChatMessages.conversationNotFound });
    expect(await conversations(jon!)).toHaveLength(1);

    const later = await send(sHal, gil!, 'Three.');
    const inbox = await inboxOnceIt(gil!, (list) =>
      expect(list[0]?.lastMessage._id).toBe(later._id),
    );
    expect(unreadOf(inbox)).toEqual([
      [hal, 1],
      [ida, 1],
    ]);
  });

  it('refuses a malformed room id with 400 and a message, changing nothing', async () => {
    const [kim, lou] = await Promise.all(['kim', 'lou'].map(known));
    await chat.befriend(kim!, lou!, one);
    await send(await socketOf(one, lou!), kim!, 'Hi Kim.');
    const before = await inboxOnceIt(kim!, (list) => expect(unreadOf(list)).toEqual([[lou, 1]]));

    for (const bad of [
      'not-a-room',
      `${kim}_${kim}`,
      `${kim}_`,
      `${lou}_${kim}`, // the two ids out of order: not the pair's room id
      `${kim}_${lou}_x`,
      'x'.repeat(300), // as long as the router takes a parameter
      `${kim}_${lou}\u0007`,
    ]) {
      const res = await markRead(kim!, bad);
      expect(res.statusCode, bad).toBe(400);
      const body = res.json<{ error: string; message: string }>();
      expect(typeof body.error, bad).toBe('string');
      expect(body.message, bad).toMatch(/\S/);
    }
    expect((await markRead(kim!, 'not-a-room')).json()).toMatchObject({
      message: ChatMessages.badRoom,
    });
    // longer than the router takes a parameter (maxParamLength): 414, said too
    const tooLong = await markRead(kim!, `${kim}_${'x'.repeat(300)}`);
    expect(tooLong.statusCode).toBe(414);
    expect(tooLong.json()).toMatchObject({ error: expect.any(String), message: /\S/ });
    // without a user: 401
    const anonymous = await throughGateway(one.app).inject({ url: '/api/conversations' });
    expect(anonymous.statusCode).toBe(401);
    expect(await conversations(kim!)).toEqual(before);
  });
});

describe('message.sent, at least once and in any order', () => {
  it('a replayed event and an older one arriving late change nothing', async () => {
    const [max, ned, oli, pia] = await Promise.all(['max', 'ned', 'oli', 'pia'].map(known));
    const room = roomIdOf(max!, ned!);
    const newer = {
      messageId: new ObjectId().toHexString(),
      roomId: room,
      senderId: ned!,
      recipientId: max!,
      preview: 'Newer.',
      timestamp: '2026-06-02T10:00:00.000Z',
      recipientInRoom: false,
    };
    const event = await chat.publish(ChatMessageSent, room, newer);
    const expected = [
      {
        roomId: room,
        friend: { id: ned, name: 'ned', picture: DEFAULT_AVATAR },
        lastMessage: {
          _id: newer.messageId,
          content: 'Newer.',
          timestamp: newer.timestamp,
          senderId: ned,
        },
        unread: 1,
      },
    ];
    await inboxOnceIt(max!, (list) => expect(list).toEqual(expected));

    // the same envelope again (a redelivery), the same message in a new envelope (announced
    // twice), and a message stored before it whose event comes late
    await chat.publishEnvelope(Topics.chatMessage, room, event);
    await chat.publish(ChatMessageSent, room, newer);
    await chat.publish(ChatMessageSent, room, {
      ...newer,
      messageId: new ObjectId().toHexString(),
      preview: 'Older.',
      timestamp: '2026-06-02T09:59:00.000Z',
    });
    // a marker on the same key (so the same partition, consumed after them) for another pair
    const marker = {
      ...newer,
      messageId: new ObjectId().toHexString(),
      roomId: roomIdOf(oli!, pia!),
      senderId: oli!,
      recipientId: pia!,
      preview: 'Marker.',
    };
    await chat.publish(ChatMessageSent, room, marker);
    await inboxOnceIt(pia!, (list) => expect(unreadOf(list)).toEqual([[oli, 1]]));

    expect(await conversations(max!)).toEqual(expected);
    expect(await conversations(ned!)).toEqual([
      {
        ...expected[0],
        friend: { id: max, name: 'max', picture: DEFAULT_AVATAR },
        unread: 0,
      },
    ]);
  });
});
