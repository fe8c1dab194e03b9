import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CHAT_SOCKET_PATH,
  ChatEvents,
  ChatLimits,
  ChatMessages,
  ConversationResponse,
  revocationMessage,
  revokedSessionKey,
  roomIdOf,
  SESSION_REVOCATIONS_CHANNEL,
  type ChatAck,
  type ReceiveMessage,
  type SendMessageAck,
} from '@wayfarer/contracts';
import { gatewayHeaders, throughGateway } from '@wayfarer/test-kit';
import { Redis } from 'ioredis';
import { emitAck, startTwo, type Chat, type Instance } from './harness';

let chat: Chat;
let one: Instance;
let two: Instance;

beforeAll(async () => {
  ({ chat, one, two } = await startTwo());
}, 90_000);
afterAll(() => chat?.close(), 60_000);

/** Everything a socket receives, in order. */
function inbox(socket: Socket): ReceiveMessage[] {
  const got: ReceiveMessage[] = [];
  socket.on(ChatEvents.receiveMessage, (m: ReceiveMessage) => got.push(m));
  return got;
}

async function history(svc: Instance, userId: string, roomId: string, query = '') {
  const res = await throughGateway(svc.app).inject({
    method: 'GET',
    url: `/api/conversation/${roomId}${query}`,
    headers: { 'x-user-id': userId },
  });
  return res;
}

async function stored(svc: Instance, roomId: string) {
  return svc.stores.messages.collection.find({ roomId }).toArray();
}

const pair = (names: [string, string]) => chat.pair(names, one);

async function joined(svc: Instance, userId: string, room: string, sessionId?: string) {
  const socket = chat.socketOf(svc, { userId, sessionId: sessionId ?? null });
  await chat.connected(socket);
  const ack = await emitAck<ChatAck>(socket, ChatEvents.join, room);
  expect(ack).toEqual({ ok: true });
  return socket;
}

const send = (socket: Socket, to: string, text: string, from?: string) =>
  emitAck<SendMessageAck>(socket, ChatEvents.sendMessage, {
    to,
    from: from ?? 'ignored',
    text,
    timestamp: Date.now(),
  });

describe('two instances over Redis', () => {
  it('delivers both ways across instances and keeps each message once in the history', async () => {
    const { a, b, room } = await pair(['ann', 'bob']);
    const sa = await joined(one, a, room);
    const sb = await joined(two, b, room);
    const inA = inbox(sa);
    const inB = inbox(sb);

    const fromA = await send(sa, b, '  hello from one  ');
    expect(fromA.ok).toBe(true);
    await vi.waitFor(() => expect(inB.map((m) => m.text)).toEqual(['hello from one']));
    const fromB = await send(sb, a, 'hi from two');
    expect(fromB.ok).toBe(true);
    await vi.waitFor(() =>
      expect(inA.map((m) => m.text)).toEqual(['hello from one', 'hi from two']),
    );
    expect(inB[0]).toMatchObject({ from: a, roomId: room });

    const res = await history(two, b, room);
    expect(res.statusCode).toBe(200);
    const body = ConversationResponse.parse(res.json());
    expect(body.conversation._id).toBe(room);
    expect(body.conversation.messages.map((m) => [m.sender._id, m.content])).toEqual([
      [a, 'hello from one'],
      [b, 'hi from two'],
    ]);
    expect(body.conversation.messages[0]!.sender).toMatchObject({
      name: 'ann',
      email: `ann${chat.suffix}@example.com`,
    });
    expect(body.nextCursor).toBeNull();
  });

  it('pages the history newest first with a cursor: 10, then 20, then the rest', async () => {
    const { a, b, room } = await pair(['pam', 'pat']);
    const base = Date.now() - 100_000;
    for (let i = 0; i < 35; i += 1) {
      await one.stores.messages.insert({
        roomId: room,
        senderId: i % 2 ? a : b,
        content: `m${i}`,
        timestamp: new Date(base + Math.floor(i / 3) * 1000), // equal timestamps too
      });
    }
    const first = ConversationResponse.parse((await history(one, a, room)).json());
    expect(first.conversation.messages.map((m) => m.content)).toEqual(
      Array.from({ length: 10 }, (_, i) => `m${25 + i}`),
    );
    const more = ConversationResponse.parse(
      (
        await history(one, a, room, `?before=${first.nextCursor}&limit=${ChatLimits.morePage}`)
      ).json(),
    );
    expect(more.conversation.messages.map((m) => m.content)).toEqual(
      Array.from({ length: 20 }, (_, i) => `m${5 + i}`),
    );
    const rest = ConversationResponse.parse(
      (await history(one, a, room, `?before=${more.nextCursor}&limit=20`)).json(),
    );
    expect(rest.conversation.messages.map((m) => m.content)).toEqual([
      'm0',
      'm1',
      'm2',
      'm3',
      'm4',
    ]);
    expect(rest.nextCursor).toBeNull();
    expect((await history(one, a, room, '?before=nonsense')).statusCode).toBe(400);
  });
});

describe('security: nothing stored or delivered', () => {
  it('refuses a socket without the identity proof, or with one forged or for another path', async () => {
    const before = one.sockets.io.of('/').sockets.size;
    const user = await chat.user('zed');
    const refused = [
      chat.socketOf(one, null),
      chat.socketOf(one, {}),
      chat.rawSocket(
        one,
        gatewayHeaders(
          'GET',
          CHAT_SOCKET_PATH,
          { userId: user },
          'another-secret-of-at-least-32-bytes-000',
        ),
      ),
      chat.rawSocket(one, gatewayHeaders('GET', '/api/conversation/x', { userId: user })),
    ];
    for (const socket of refused) await expect(chat.connected(socket)).rejects.toThrow();
    expect(one.sockets.io.of('/').sockets.size).toBe(before);
  });

  it("refuses joining a stranger's room, and delivers nothing there to the intruder", async () => {
    const { a, b, room } = await pair(['cat', 'dan']);
    const eve = await chat.user('eve');
    const se = chat.socketOf(two, { userId: eve });
    await chat.connected(se);
    const inE = inbox(se);
    expect(await emitAck<ChatAck>(se, ChatEvents.join, room)).toEqual({
      ok: false,
      error: ChatMessages.notInRoom,
    });
    // a room of eve's own id and a non-friend's
    expect(await emitAck<ChatAck>(se, ChatEvents.join, roomIdOf(eve, a))).toEqual({
      ok: false,
      error: ChatMessages.notInRoom,
    });
    const sa = await joined(one, a, room);
    const sb = await joined(two, b, room);
    const inB = inbox(sb);
    expect((await send(sa, b, 'private')).ok).toBe(true);
    await vi.waitFor(() => expect(inB).toHaveLength(1));
    expect(inE).toEqual([]);
    expect((await history(two, eve, room)).statusCode).toBe(403);
  });

  it('takes the sender from the session, never from the client', async () => {
    const { a, b, room } = await pair(['fay', 'gus']);
    const sa = await joined(one, a, room);
    const sb = await joined(two, b, room);
    const inB = inbox(sb);
    const ack = await send(sa, b, 'who am I', b);
    expect(ack).toMatchObject({ ok: true, message: { from: a } });
    await vi.waitFor(() => expect(inB).toHaveLength(1));
    expect(inB[0]!.from).toBe(a);
    expect((await stored(one, room)).map((m) => m.senderId)).toEqual([a]);
  });

  it('refuses sending to a non-friend, empty, whitespace-only and oversized text', async () => {
    const { a, b, room } = await pair(['hal', 'ida']);
    const stranger = await chat.user('joe');
    const sa = await joined(one, a, room);
    const sb = await joined(two, b, room);
    const inB = inbox(sb);
    expect(await send(sa, stranger, 'hello stranger')).toEqual({
      ok: false,
      error: ChatMessages.notFriends,
    });
    expect(await send(sa, a, 'myself')).toEqual({ ok: false, error: ChatMessages.notFriends });
    expect(await send(sa, b, '')).toEqual({ ok: false, error: ChatMessages.emptyText });
    expect(await send(sa, b, ' \n\t ')).toEqual({ ok: false, error: ChatMessages.emptyText });
    expect(await send(sa, b, 'x'.repeat(ChatLimits.textMax + 1))).toEqual({
      ok: false,
      error: ChatMessages.textTooLong,
    });
    expect(await emitAck(sa, ChatEvents.sendMessage, { text: 'no to' })).toEqual({
      ok: false,
      error: ChatMessages.badPayload,
    });
    // the limit itself is allowed; then a marker proves nothing refused was delivered before it
    expect((await send(sa, b, 'y'.repeat(ChatLimits.textMax))).ok).toBe(true);
    await vi.waitFor(() => expect(inB).toHaveLength(1));
    expect(inB[0]!.text).toHaveLength(ChatLimits.textMax);
    expect(await stored(one, room)).toHaveLength(1);
    expect(await stored(one, roomIdOf(a, stranger))).toHaveLength(0);
  });

  it('ends the room on unfriending: both sockets leave it and sending is refused', async () => {
    const { a, b, room } = await pair(['kim', 'lou']);
    const sa = await joined(one, a, room);
    const sb = await joined(two, b, room);
    const inA = inbox(sa);
    const inB = inbox(sb);
    await chat.unfriend(a, b, one);
    await vi.waitFor(async () => {
      expect(await one.sockets.io.in(room).fetchSockets()).toHaveLength(0);
    });
    expect(await send(sa, b, 'still there?')).toEqual({
      ok: false,
      error: ChatMessages.notFriends,
    });
    expect(await emitAck<ChatAck>(sb, ChatEvents.join, room)).toEqual({
      ok: false,
      error: ChatMessages.notInRoom,
    });
    expect(await stored(one, room)).toHaveLength(0);
    expect(inA).toEqual([]);
    expect(inB).toEqual([]);
    expect((await history(one, a, room)).statusCode).toBe(403);
  });

  it('limits the rate per socket', async () => {
    const { a, b, room } = await pair(['max', 'ned']);
    const sa = await joined(one, a, room);
    const acks: SendMessageAck[] = [];
    for (let i = 0; i <= ChatLimits.rateMessages; i += 1) acks.push(await send(sa, b, `n${i}`));
    expect(acks.filter((x) => x.ok)).toHaveLength(ChatLimits.rateMessages);
    expect(acks.at(-1)).toEqual({ ok: false, error: ChatMessages.rateLimited });
    expect(await stored(one, room)).toHaveLength(ChatLimits.rateMessages);
  });

  it("cuts a revoked session's socket and refuses it afterwards", async () => {
    const { a, b, room } = await pair(['oli', 'pia']);
    const session = `s-${chat.suffix}`;
    const sa = await joined(one, a, room, session);
    const other = await joined(two, a, room, `${session}-other`);
    const redis = new Redis(chat.env.REDIS_URL);
    try {
      const exp = Math.floor(Date.now() / 1000) + 3600;
      await redis
        .multi()
        .set(revokedSessionKey(session), '1', 'EX', 3600)
        .publish(SESSION_REVOCATIONS_CHANNEL, revocationMessage(session, exp))
        .exec();
      await vi.waitFor(() => expect(sa.connected).toBe(false));
      expect(other.connected).toBe(true);
      const again = chat.socketOf(two, { userId: a, sessionId: session });
      await expect(chat.connected(again)).rejects.toThrow(ChatMessages.sessionRevoked);
      expect(await stored(one, room)).toHaveLength(0);
    } finally {
      await redis.del(revokedSessionKey(session));
      redis.disconnect();
    }
    void b;
  });
});

describe('an instance dies mid-conversation', () => {
  it('the user reconnects to the other instance and reads what it missed, once', async () => {
    const { a, b, room } = await pair(['quin', 'rita']);
    const sa = await joined(one, a, room);
    const sb = await joined(two, b, room);
    const inA = inbox(sa);
    expect((await send(sb, a, 'before')).ok).toBe(true);
    await vi.waitFor(() => expect(inA).toHaveLength(1));

    await one.close();
    await vi.waitFor(() => expect(sa.connected).toBe(false));
    expect((await send(sb, a, 'while you were away 1')).ok).toBe(true);
    expect((await send(sb, a, 'while you were away 2')).ok).toBe(true);

    const again = await joined(two, a, room);
    const live = inbox(again);
    const res = await history(two, a, room);
    const body = ConversationResponse.parse(res.json());
    const texts = body.conversation.messages.map((m) => m.content);
    expect(texts).toEqual(['before', 'while you were away 1', 'while you were away 2']);
    // what the client shows: the history merged with live messages by _id, each once
    expect((await send(sb, a, 'welcome back')).ok).toBe(true);
    await vi.waitFor(() => expect(live).toHaveLength(1));
    const shown = new Map<string, string>();
    for (const m of [
      ...inA,
      ...body.conversation.messages.map((x) => ({ _id: x._id, text: x.content })),
      ...live,
    ]) {
      shown.set(m._id, m.text);
    }
    expect([...shown.values()]).toEqual([...texts, 'welcome back']);
  });
});
