import { Partitioners, type Producer } from 'kafkajs';
import { io as connect, type Socket } from 'socket.io-client';
import { expect, vi } from 'vitest';
import {
  CHAT_SOCKET_PATH,
  FriendshipCreated,
  friendshipId,
  FriendshipRemoved,
  makeEvent,
  roomIdOf,
  UserRegistered,
  type EventDefinition,
  type EventEnvelope,
} from '@wayfarer/contracts';
import { groupId, loadConfig } from '@wayfarer/service-kit';
import {
  dropConsumerGroups,
  dropMongoDatabase,
  gatewayHeaders,
  testKafka,
  testServiceEnv,
  uniqueSuffix,
  type TestIdentity,
} from '@wayfarer/test-kit';
import type { z } from 'zod';
import { ChatEnv } from '../../src/config';
import { CONSUMERS } from '../../src/events/consumers';
import { createService, type ChatService } from '../../src/service';

export interface Instance extends ChatService {
  url: string;
}

/**
 * Two chat instances booted by the composition root on one database, one consumer group and one
 * Redis (as the stack runs them), each listening on an ephemeral port; a producer publishing
 * what auth and social would; socket.io clients connected with the gateway's headers.
 */
export async function startChat(adapter: 'sharded' | 'classic' = 'sharded') {
  const suffix = uniqueSuffix();
  const env = loadConfig(
    ChatEnv,
    testServiceEnv({ MONGO_DB: `t_chat_${suffix}`, CHAT_ADAPTER: adapter, PORT: '4006' }),
  );
  const instances: Instance[] = [];
  const sockets: Socket[] = [];
  const producer: Producer = testKafka().producer({
    createPartitioner: Partitioners.DefaultPartitioner,
  });

  const start = async (): Promise<Instance> => {
    const svc = await createService(env, { skipHistory: true });
    await svc.projections.started;
    await svc.app.listen({ port: 0, host: '127.0.0.1' });
    const address = svc.app.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    const instance = { ...svc, url: `http://127.0.0.1:${address.port}` };
    instances.push(instance);
    return instance;
  };

  const close = async () => {
    for (const s of sockets) s.disconnect();
    await Promise.allSettled(instances.map((i) => i.close()));
    await producer.disconnect();
    await dropConsumerGroups(Object.values(CONSUMERS).map((name) => groupId(env, name)));
    await dropMongoDatabase(env.MONGO_DB);
  };

  await producer.connect();
  const publish = async <S extends z.ZodType>(
    def: EventDefinition<S>,
    aggregateId: string,
    payload: z.input<S>,
  ) => {
    const event = makeEvent(def, aggregateId, payload) as EventEnvelope;
    await producer.send({
      topic: def.topic,
      acks: -1,
      messages: [{ key: aggregateId, value: JSON.stringify(event) }],
    });
    return event;
  };

  /** Sends an envelope again (a redelivery), keyed by `key`. */
  const publishEnvelope = async (topic: string, key: string, event: EventEnvelope) => {
    await producer.send({
      topic,
      acks: -1,
      messages: [{ key, value: JSON.stringify(event) }],
    });
  };

  /** A socket of `identity` to `instance`, as the gateway would forward its upgrade. */
  const socketOf = (instance: Instance, identity: TestIdentity | null): Socket => {
    const socket = connect(instance.url, {
      path: CHAT_SOCKET_PATH,
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      extraHeaders: identity ? gatewayHeaders('GET', CHAT_SOCKET_PATH, identity) : {},
    });
    sockets.push(socket);
    return socket;
  };

  /** A socket with exactly these upgrade headers (forged ones). */
  const rawSocket = (instance: Instance, headers: Record<string, string>): Socket => {
    const socket = connect(instance.url, {
      path: CHAT_SOCKET_PATH,
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      extraHeaders: headers,
    });
    sockets.push(socket);
    return socket;
  };

  /** Resolves once connected (rejects with the refusal). */
  const connected = (socket: Socket) =>
    new Promise<void>((resolve, reject) => {
      if (socket.connected) return resolve();
      socket.once('connect', () => resolve());
      socket.once('connect_error', (err) => reject(err));
    });

  const user = async (name: string) => {
    const id = `${name}${suffix}`;
    await publish(UserRegistered, id, {
      userId: id,
      name,
      email: `${name}${suffix}@example.com`,
      profilePicture: '',
    });
    return id;
  };

  const befriend = async (a: string, b: string, svc: Instance) => {
    await publish(FriendshipCreated, friendshipId(a, b), { userIds: [a, b] });
    await vi.waitFor(async () => expect(await svc.stores.friendships.areFriends(a, b)).toBe(true), {
      timeout: 20_000,
      interval: 50,
    });
  };

  const unfriend = async (a: string, b: string, svc: Instance) => {
    await publish(FriendshipRemoved, friendshipId(a, b), { userIds: [a, b] });
    await vi.waitFor(
      async () => expect(await svc.stores.friendships.areFriends(a, b)).toBe(false),
      { timeout: 20_000, interval: 50 },
    );
  };

  /** Two new users, friends as `instances` see it (each waited for), and their room. */
  const pair = async (names: [string, string], ...instances: Instance[]) => {
    const a = await user(names[0]);
    const b = await user(names[1]);
    for (const svc of instances) await befriend(a, b, svc);
    return { a, b, room: roomIdOf(a, b) };
  };

  /** A new user that `svc` knows by name (its users projection applied the registration). */
  const known = async (name: string, svc: Instance) => {
    const id = await user(name);
    await vi.waitFor(async () => expect((await svc.stores.users.profile(id)).name).toBe(name), {
      timeout: 20_000,
      interval: 50,
    });
    return id;
  };

  return {
    env,
    suffix,
    start,
    close,
    publish,
    publishEnvelope,
    socketOf,
    rawSocket,
    connected,
    user,
    befriend,
    unfriend,
    pair,
    known,
  };
}

export type Chat = Awaited<ReturnType<typeof startChat>>;

/** A chat and one instance of it (a test file's `beforeAll`; `chat.close()` ends both). */
export async function startOne(): Promise<{ chat: Chat; one: Instance }> {
  const chat = await startChat();
  try {
    return { chat, one: await chat.start() };
  } catch (err) {
    await chat.close();
    throw err;
  }
}

/** A chat and two instances of it, sharing Redis, MongoDB and Kafka. */
export async function startTwo(): Promise<{ chat: Chat; one: Instance; two: Instance }> {
  const { chat, one } = await startOne();
  try {
    return { chat, one, two: await chat.start() };
  } catch (err) {
    await chat.close();
    throw err;
  }
}

/** Emits with an ack and resolves with the answer. */
export function emitAck<T>(socket: Socket, event: string, ...args: unknown[]): Promise<T> {
  return socket.timeout(10_000).emitWithAck(event, ...args) as Promise<T>;
}
