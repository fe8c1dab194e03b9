import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ChatEvents,
  ChatMessages,
  roomIdOf,
  type ChatAck,
  type SendMessageAck,
} from '@wayfarer/contracts';
import { throughGateway } from '@wayfarer/test-kit';
import { emitAck, startChat, type Instance } from './harness';

/*
 * Every text of chat's socket payloads and HTTP parameters is plain text: a message's
 * text is multi-line (tabs and line breaks kept), ids one line; a control character or a lone
 * surrogate is refused with a message naming the field, and nothing is stored or delivered.
 */

type Chat = Awaited<ReturnType<typeof startChat>>;
let chat: Chat;
let one: Instance;
let a: string;
let b: string;
let room: string;

beforeAll(async () => {
  chat = await startChat();
  one = await chat.start();
  a = await chat.user('tia');
  b = await chat.user('ugo');
  await chat.befriend(a, b, one);
  room = roomIdOf(a, b);
}, 90_000);

afterAll(async () => {
  await chat?.close();
}, 60_000);

const stored = () => one.stores.messages.collection.find({ roomId: room }).toArray();

describe('send_message', () => {
  it.each([
    [
      'a NUL in text',
      { text: 'hi\u0000' },
      'text: must not contain control characters (only tabs and line breaks are): found U+0000 at position 3.',
    ],
    [
      'a bell in text',
      { text: '\u0007ding' },
      'text: must not contain control characters (only tabs and line breaks are): found U+0007 at position 1.',
    ],
    [
      'a lone surrogate in text',
      { text: 'x\udc00' },
      'text: must be valid Unicode text: found a lone surrogate U+DC00 at position 2.',
    ],
    [
      'a NUL in to',
      { to: 'ugo\u0000' },
      'to: must not contain control characters: found U+0000 at position 4.',
    ],
    [
      'a line break in clientId',
      { clientId: 'c\n1' },
      'clientId: must not contain control characters: found U+000A at position 2.',
    ],
  ])('refuses %s, and stores and delivers nothing', async (_name, fields, error) => {
    const socket = chat.socketOf(one, { userId: a });
    await chat.connected(socket);
    const ack = await emitAck<SendMessageAck>(socket, ChatEvents.sendMessage, {
      to: b,
      text: 'hello',
      ...fields,
    });
    expect(ack).toEqual({ ok: false, error });
    expect(await stored()).toEqual([]);
  });

  it('keeps tabs and line breaks of a message', async () => {
    const socket = chat.socketOf(one, { userId: a });
    await chat.connected(socket);
    const ack = await emitAck<SendMessageAck>(socket, ChatEvents.sendMessage, {
      to: b,
      text: 'line one\r\n\tline two',
    });
    expect(ack).toMatchObject({ ok: true, message: { text: 'line one\r\n\tline two' } });
  });
});

describe('join and the history', () => {
  it('refuses a room id with a control character', async () => {
    const socket = chat.socketOf(one, { userId: a });
    await chat.connected(socket);
    expect(await emitAck<ChatAck>(socket, ChatEvents.join, `${room}\u0000`)).toEqual({
      ok: false,
      error: ChatMessages.badRoom,
    });
  });

  it.each([
    [
      `/api/conversation/${'%00'}`,
      'Path parameter roomId must not contain control characters: found U+0000 at position 1.',
    ],
    [
      '/api/conversation/:room?before=%7F',
      'Query parameter before must not contain control characters: found U+007F at position 1.',
    ],
  ])('GET %s is a 400 naming the parameter', async (url, message) => {
    const res = await throughGateway(one.app).inject({
      url: url.replace(':room', room),
      headers: { 'x-user-id': a },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'bad_request', message });
  });
});
