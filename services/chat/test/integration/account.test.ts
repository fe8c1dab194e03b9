import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ChatEvents,
  ConversationResponse,
  friendshipId,
  FriendshipRemoved,
  roomIdOf,
  UserDeleted,
  UserUpdated,
  type SendMessageAck,
} from '@wayfarer/contracts';
import { collectionsHolding, throughGateway } from '@wayfarer/test-kit';
import { emitAck, startOne, type Chat, type Instance } from './harness';

// chat follows auth's user.updated (the name conversations show) and erases on
// user.deleted (the user's conversations, both sides, and friendships)

let chat: Chat;
let one: Instance;

beforeAll(async () => {
  ({ chat, one } = await startOne());
}, 90_000);
afterAll(() => chat?.close(), 60_000);

async function conversation(userId: string, roomId: string) {
  const res = await throughGateway(one.app).inject({
    url: `/api/conversation/${roomId}`,
    headers: { 'x-user-id': userId },
  });
  return {
    status: res.statusCode,
    body: res.statusCode === 200 ? ConversationResponse.parse(res.json()) : null,
  };
}

async function say(from: string, to: string, text: string) {
  const socket = chat.socketOf(one, { userId: from, sessionId: null });
  await chat.connected(socket);
  const ack = await emitAck<SendMessageAck>(socket, ChatEvents.sendMessage, {
    to,
    from,
    text,
    timestamp: Date.now(),
  });
  expect(ack.ok).toBe(true);
  socket.disconnect();
}

/** Collections of chat's database with a document whose JSON contains `text`. */
const collectionsNaming = (text: string) => collectionsHolding(one.db, [text]);

describe('user events', () => {
  it('a new name is what the conversation shows as the sender', async () => {
    const a = await chat.user('renamed');
    const b = await chat.user('reader');
    await chat.befriend(a, b, one);
    await say(a, b, 'hello from my old name');
    await chat.publish(UserUpdated, a, { userId: a, name: 'New Name', profilePicture: '' });
    await vi.waitFor(
      async () => {
        const { body } = await conversation(b, roomIdOf(a, b));
        expect(body!.conversation.messages[0]!.sender).toMatchObject({ _id: a, name: 'New Name' });
      },
      { timeout: 20_000, interval: 100 },
    );
  });

  it('a closed account leaves no message, user or friendship behind; others keep theirs', async () => {
    const gone = await chat.user('gone');
    const b = await chat.user('friendb');
    const c = await chat.user('friendc');
    await chat.befriend(gone, b, one);
    await chat.befriend(b, c, one);
    await say(gone, b, 'hi b');
    await say(b, gone, 'hi gone');
    await say(b, c, 'hi c');
    expect(await collectionsNaming(gone)).toEqual(expect.arrayContaining(['messages', 'users']));

    await chat.publish(UserDeleted, gone, { userId: gone });
    // social's erased friendship.removed may come after: it must not write the pair back
    await chat.publish(FriendshipRemoved, friendshipId(gone, b), {
      userIds: [gone, b],
      erased: true,
    });
    await vi.waitFor(async () => expect(await collectionsNaming(gone)).toEqual([]), {
      timeout: 20_000,
      interval: 100,
    });
    const { body } = await conversation(b, roomIdOf(b, c));
    expect(body!.conversation.messages.map((m) => m.content)).toEqual(['hi c']);
    expect(await one.stores.friendships.areFriends(b, c)).toBe(true);
    expect(await one.stores.friendships.areFriends(gone, b)).toBe(false);
  });
});
