import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CHAT_SOCKET_PATH,
  ChatEvents,
  FriendshipCreated,
  friendshipId,
  NOTIFICATION_SOCKET_EVENT,
  roomIdOf,
  UserRegistered,
  type ChatAck,
  type NotificationPushed,
  type SendMessageAck,
} from '@wayfarer/contracts';
import {
  ChatEnv,
  CONSUMERS as CHAT_CONSUMERS,
  createService as createChat,
  type ChatService,
} from '@wayfarer/chat';
import { groupIds, loadConfig } from '@wayfarer/service-kit';
import {
  dropConsumerGroups,
  dropMongoDatabase,
  gatewayHeaders,
  testServiceEnv,
  uniqueSuffix,
} from '@wayfarer/test-kit';
import { applied, startNotifications, waitOptions, type Harness } from './harness';

// the live push. notifications publishes each stored notification on Redis; every chat
// instance relays it to its own sockets of the user (chat runs the sharded socket.io adapter),
// so every tab and device of the user gets it, whichever instance it is connected to. A real
// chat: two instances on one Redis and one database, booted by chat's composition root.

let h: Harness;
const chatEnv = loadConfig(ChatEnv, testServiceEnv({ MONGO_DB: `t_chat_${uniqueSuffix()}` }));
const instances: { svc: ChatService; url: string }[] = [];
const sockets: Socket[] = [];

async function startChatInstance() {
  const svc = await createChat(chatEnv, { skipHistory: true });
  instances.push({ svc, url: '' });
  await svc.projections.started;
  await svc.app.listen({ port: 0, host: '127.0.0.1' });
  const address = svc.app.server.address();
  if (!address || typeof address === 'string') throw new Error('chat is not listening');
  instances[instances.length - 1]!.url = `http://127.0.0.1:${address.port}`;
}

beforeAll(async () => {
  h = await startNotifications();
  await startChatInstance();
  await startChatInstance();
}, 90_000);
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await Promise.allSettled(instances.map((i) => i.svc.close()));
  await dropConsumerGroups(Object.values(groupIds(chatEnv, CHAT_CONSUMERS)));
  await dropMongoDatabase(chatEnv.MONGO_DB);
  await h?.close();
});

/** A connected socket of `userId` to chat instance `i`, as the gateway forwards its upgrade. */
async function socketOf(i: number, userId: string): Promise<Socket> {
  const socket = connect(instances[i]!.url, {
    path: CHAT_SOCKET_PATH,
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    extraHeaders: gatewayHeaders('GET', CHAT_SOCKET_PATH, { userId }),
  });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

const emitAck = <T>(socket: Socket, event: string, ...args: unknown[]): Promise<T> =>
  socket.timeout(10_000).emitWithAck(event, ...args) as Promise<T>;

/** Every `notification` a socket receives, in order. */
function inbox(socket: Socket): NotificationPushed[] {
  const got: NotificationPushed[] = [];
  socket.on(NOTIFICATION_SOCKET_EVENT, (pushed: NotificationPushed) => got.push(pushed));
  return got;
}

/** A user as auth announces them (both services consume it); known to notifications. */
async function user(name: string): Promise<string> {
  const id = crypto.randomUUID();
  await applied(
    h,
    await h.publish(UserRegistered, id, {
      userId: id,
      name,
      email: `${id}@example.com`,
      profilePicture: '',
    }),
  );
  return id;
}

describe('the live push', () => {
  it("reaches every socket of the user on every chat instance, and nobody else's", async () => {
    const ann = await user('Ann');
    const bob = await user('Bob');
    const [bobHere, bobThere, annHere] = await Promise.all([
      socketOf(0, bob),
      socketOf(1, bob),
      socketOf(0, ann),
    ]);
    const [here, there, anns] = [inbox(bobHere), inbox(bobThere), inbox(annHere)];

    await h.request(ann, bob);
    for (const got of [here, there]) {
      await vi.waitFor(() => expect(got).toHaveLength(1), waitOptions);
      expect(got[0]).toMatchObject({
        notification: { kind: 'friend_request', actor: { id: ann, name: 'Ann' }, read: false },
        unread: 1,
      });
    }
    // what was pushed is what the bell lists
    expect((await h.page(bob)).notifications).toEqual([here[0]!.notification]);
    expect(anns).toEqual([]);
  });

  it("a friend's message through chat notifies only while the recipient is not in the conversation", async () => {
    const ann = await user('Cat');
    const bob = await user('Dan');
    // chat lets friends talk (its projection of social's events)
    await h.publish(FriendshipCreated, friendshipId(ann, bob), {
      userIds: [ann, bob].sort() as [string, string],
      by: bob,
    });
    const chat = instances[0]!.svc;
    await vi.waitFor(
      async () => expect(await chat.stores.friendships.areFriends(ann, bob)).toBe(true),
      waitOptions,
    );
    const room = roomIdOf(ann, bob);
    const [annSocket, bobSocket] = await Promise.all([socketOf(1, ann), socketOf(0, bob)]);
    const pushed = inbox(bobSocket);
    const live: unknown[] = [];
    bobSocket.on(ChatEvents.receiveMessage, (m: unknown) => live.push(m));

    // bob has the conversation open on one instance, ann writes from the other: no notification
    expect(await emitAck<ChatAck>(bobSocket, ChatEvents.join, room)).toEqual({ ok: true });
    const seen = await emitAck<SendMessageAck>(annSocket, ChatEvents.sendMessage, {
      to: bob,
      text: 'seen live',
    });
    expect(seen.ok).toBe(true);
    await vi.waitFor(() => expect(live).toHaveLength(1), waitOptions);

    // bob closes the conversation: the next message is a notification, pushed to his socket
    expect(await emitAck<ChatAck>(bobSocket, ChatEvents.leave, room)).toEqual({ ok: true });
    const away = await emitAck<SendMessageAck>(annSocket, ChatEvents.sendMessage, {
      to: bob,
      text: 'Are you there?',
    });
    expect(away.ok).toBe(true);
    await vi.waitFor(
      () => expect(pushed.filter((p) => p.notification.kind === 'message')).toHaveLength(1),
      waitOptions,
    );
    const message = pushed.find((p) => p.notification.kind === 'message')!.notification;
    expect(message).toMatchObject({
      actor: { id: ann, name: 'Cat' },
      subject: {
        roomId: room,
        messageId: away.ok ? away.message._id : '',
        preview: 'Are you there?',
      },
    });
    // the first message (before it on the room's partition: applied first) made none
    expect((await h.all(bob)).filter((n) => n.kind === 'message').map((n) => n.subject)).toEqual([
      message.subject,
    ]);
  });
});
