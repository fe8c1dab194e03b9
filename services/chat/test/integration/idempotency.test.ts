import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ChatEvents,
  IdempotencyMessages,
  roomIdOf,
  type ChatAck,
  type ReceiveMessage,
  type SendMessageAck,
} from '@wayfarer/contracts';
import { emitAck, startTwo, type Chat, type Instance } from './harness';

let chat: Chat;
let one: Instance;
let two: Instance;

beforeAll(async () => {
  ({ chat, one, two } = await startTwo());
}, 90_000);
afterAll(() => chat?.close(), 60_000);

const pair = (names: [string, string]) => chat.pair(names, one, two);

async function joined(svc: Instance, userId: string, room: string) {
  const socket = chat.socketOf(svc, { userId });
  await chat.connected(socket);
  expect(await emitAck<ChatAck>(socket, ChatEvents.join, room)).toEqual({ ok: true });
  return socket;
}

/** `send_message` with a `clientId`, the message's idempotency key. */
const send = (socket: Socket, to: string, text: string, clientId: unknown) =>
  emitAck<SendMessageAck>(socket, ChatEvents.sendMessage, { to, text, clientId });

const stored = (room: string) => one.stores.messages.collection.countDocuments({ roomId: room });

describe('send_message with a clientId (real MongoDB-wire server, two instances)', () => {
  it('answers a resend with the stored message and stores nothing, on any instance', async () => {
    const { a, b, room } = await pair(['ann', 'bob']);
    const ann1 = await joined(one, a, room);
    const ann2 = await joined(two, a, room);
    const bob = await joined(two, b, room);
    const got: ReceiveMessage[] = [];
    bob.on(ChatEvents.receiveMessage, (m: ReceiveMessage) => got.push(m));

    const clientId = crypto.randomUUID();
    const first = await send(ann1, b, 'Hello!', clientId);
    expect(first).toMatchObject({ ok: true, message: { text: 'Hello!', clientId } });
    // the ack was lost; the app resends the same message, here through the other instance
    const again = await send(ann2, b, 'Hello!', clientId);
    expect(again).toEqual(first);
    expect(await stored(room)).toBe(1);
    // delivered again (the first sender may have died before delivering): the same _id
    await vi.waitFor(() => expect(got).toHaveLength(2), { timeout: 10_000, interval: 20 });
    expect(new Set(got.map((m) => m._id)).size).toBe(1);
  });

  it('refuses the same clientId with another text or to another friend, storing nothing', async () => {
    const { a, b, room } = await pair(['cat', 'dan']);
    const eve = await chat.user('eve');
    await chat.befriend(a, eve, one);
    const cat = await joined(one, a, room);
    const clientId = crypto.randomUUID();
    expect((await send(cat, b, 'One.', clientId)).ok).toBe(true);
    expect(await send(cat, b, 'Two.', clientId)).toEqual({
      ok: false,
      error: IdempotencyMessages.clientIdReused,
    });
    expect(await send(cat, eve, 'One.', clientId)).toEqual({
      ok: false,
      error: IdempotencyMessages.clientIdReused,
    });
    expect(await stored(room)).toBe(1);
    expect(await stored(roomIdOf(a, eve))).toBe(0);
  });

  it("treats another sender's same clientId as unrelated", async () => {
    const { a, b, room } = await pair(['fay', 'gus']);
    const fay = await joined(one, a, room);
    const gus = await joined(two, b, room);
    const clientId = crypto.randomUUID();
    const fays = await send(fay, b, 'Hi Gus.', clientId);
    const guss = await send(gus, a, 'Hi Fay.', clientId);
    expect([fays.ok, guss.ok]).toEqual([true, true]);
    expect(await stored(room)).toBe(2);
  });

  it('stores one message for concurrent sends with the same clientId, all acked alike', async () => {
    const { a, b, room } = await pair(['hal', 'ivy']);
    const hal1 = await joined(one, a, room);
    const hal2 = await joined(two, a, room);
    const clientId = crypto.randomUUID();
    const acks = await Promise.all(
      [hal1, hal2, hal1, hal2].map((socket) => send(socket, b, 'Once.', clientId)),
    );
    expect(acks.every((ack) => ack.ok)).toBe(true);
    expect(new Set(acks.map((ack) => (ack.ok ? ack.message._id : null))).size).toBe(1);
    expect(await stored(room)).toBe(1);
  });

  it('refuses a malformed clientId (space, control character, too long) and stores nothing', async () => {
    const { a, b, room } = await pair(['jon', 'kim']);
    const jon = await joined(one, a, room);
    expect(await send(jon, b, 'Hi.', 'two words')).toEqual({
      ok: false,
      error: IdempotencyMessages.badClientId,
    });
    // refused by the payload's schema already
    for (const bad of ['tab\there', 'x'.repeat(129), 42]) {
      expect(await send(jon, b, 'Hi.', bad), JSON.stringify(bad)).toMatchObject({ ok: false });
    }
    expect(await stored(room)).toBe(0);
    // without a clientId a message is stored each time it is sent
    expect((await send(jon, b, 'Hi.', undefined)).ok).toBe(true);
    expect((await send(jon, b, 'Hi.', undefined)).ok).toBe(true);
    expect(await stored(room)).toBe(2);
  });
});
