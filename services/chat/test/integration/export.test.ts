import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ChatEvents,
  ExportAreaDocument,
  IdentityHeaders,
  INTERNAL_EXPORT_PATH,
  type SendMessageAck,
} from '@wayfarer/contracts';
import { throughGateway } from '@wayfarer/test-kit';
import type { Socket } from 'socket.io-client';
import type { ExportedMessage } from '../../src/domain/export';
import { emitAck, startOne, type Chat, type Instance } from './harness';

let chat: Chat;
let one: Instance;

beforeAll(async () => {
  ({ chat, one } = await startOne());
}, 90_000);
afterAll(() => chat?.close(), 60_000);

const known = (name: string) => chat.known(name, one);

async function send(socket: Socket, to: string, text: string) {
  const ack = await emitAck<SendMessageAck>(socket, ChatEvents.sendMessage, { to, text });
  if (!ack.ok) throw new Error(`not sent: ${ack.error}`);
}

async function socketOf(userId: string) {
  const socket = chat.socketOf(one, { userId });
  await chat.connected(socket);
  return socket;
}

describe('the messages area of the account export', () => {
  it("holds the messages the user sent and received, and none of others' conversations", async () => {
    const [ann, bob, cal] = await Promise.all(['ann', 'bob', 'cal'].map(known));
    await chat.befriend(ann!, bob!, one);
    await chat.befriend(bob!, cal!, one);
    const [sAnn, sBob] = [await socketOf(ann!), await socketOf(bob!)];
    await send(sAnn, bob!, 'Hi Bob.');
    await send(sBob, ann!, 'Hi Ann!');
    await send(sBob, cal!, 'A secret for Cal.');

    const res = await throughGateway(one.app).inject({
      url: INTERNAL_EXPORT_PATH,
      headers: { [IdentityHeaders.userId]: ann! },
    });
    expect(res.statusCode, res.body).toBe(200);
    const doc = ExportAreaDocument.parse(res.json());
    expect(doc.area).toBe('messages');
    const items = doc.items as ExportedMessage[];
    expect(
      items.map(({ direction, otherId, otherName, content }) => ({
        direction,
        otherId,
        otherName,
        content,
      })),
    ).toEqual([
      { direction: 'sent', otherId: bob, otherName: 'bob', content: 'Hi Bob.' },
      { direction: 'received', otherId: bob, otherName: 'bob', content: 'Hi Ann!' },
    ]);
    for (const item of items) expect(Number.isNaN(Date.parse(item.timestamp))).toBe(false);
    expect(res.body).not.toContain('secret');
  });
});
