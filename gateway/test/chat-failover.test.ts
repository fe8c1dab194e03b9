import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { io, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CHAT_SOCKET_PATH,
  ChatEvents,
  FriendshipCreated,
  friendshipId,
  makeEvent,
  roomIdOf,
  UserRegistered,
  type EventDefinition,
  type EventEnvelope,
} from '@wayfarer/contracts';
import { createLogger } from '@wayfarer/service-kit';
import {
  dropMongoDatabase,
  TEST_IDENTITY_PROOF_SECRET,
  testInfra,
  testKafka,
  testServiceEnv,
  uniqueSuffix,
} from '@wayfarer/test-kit';
import { freePort } from '@wayfarer/test-kit/faults';
import type { z } from 'zod';
import { buildApp } from '../src/app';
import { testSessions, testConfig } from './wire';

/**
 * Chat failover through the gateway, with real processes: two chat instances started
 * as the stack starts them (`services/chat/src/main.ts`, one database, one consumer group, one
 * Redis), the gateway in front (spreading sockets over both), and two friends' socket.io clients
 * set up as the frontend's (`frontend/src/chat/socket.ts`: websocket transport, socket.io's
 * default reconnection, and a reconnect of its own when the server disconnects it). One instance
 * is stopped mid-conversation, as the stack runner's `stopProcess` does (SIGTERM) or killed
 * (SIGKILL): the friend on it is back on the other instance (well within socket.io's 20 s
 * connect timeout, which a client accepted onto a dead instance used to wait out), joins again,
 * and nothing of the conversation is lost. The reconnect time itself is measured in
 * `bench/chat/failover.bench.ts`.
 */

const CHAT_DIR = join(import.meta.dirname, '../../services/chat');
/** Bound for a reconnection (the budget is 2 s, measured by the bench; this only fails a hang). */
const RECONNECTED_WITHIN_MS = 10_000;

interface ChatProcess {
  url: string;
  child: ChildProcess;
  stop(signal: 'SIGTERM' | 'SIGKILL'): Promise<void>;
}

describe('gateway: chat failover with real chat processes', () => {
  const suffix = uniqueSuffix();
  const chatEnv = testServiceEnv({
    MONGO_DB: `t_chat_failover_${suffix}`,
    KAFKA_GROUP_PREFIX: `t-chat-failover-${suffix}-`,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  });
  const sessions = testSessions();
  const producer = testKafka().producer();
  const processes: ChatProcess[] = [];
  const sockets: Socket[] = [];
  const gateways: { app: FastifyInstance; redis: Redis }[] = [];
  let steady: ChatProcess;

  /** A chat instance as the stack runs it, ready (its `/readyz` answers 200). */
  async function startChat(): Promise<ChatProcess> {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: CHAT_DIR,
      env: { ...process.env, ...chatEnv, PORT: String(port), NODE_ENV: 'production' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const url = `http://127.0.0.1:${port}`;
    const chat: ChatProcess = {
      url,
      child,
      stop: async (signal) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = once(child, 'exit');
        child.kill(signal);
        await exited;
      },
    };
    processes.push(chat);
    await vi.waitFor(
      async () => {
        expect(child.exitCode).toBeNull();
        expect((await fetch(`${url}/readyz`)).status).toBe(200);
      },
      { timeout: 60_000, interval: 200 },
    );
    return chat;
  }

  /** Sockets open on a chat instance (its Prometheus gauge). */
  const socketsOn = async (chat: ChatProcess) => {
    const metrics = await (await fetch(`${chat.url}/metrics`)).text();
    return Number(/^wayfarer_socket_connections (\d+)$/m.exec(metrics)?.[1] ?? NaN);
  };

  async function gatewayOver(instances: ChatProcess[]): Promise<string> {
    const redis = new Redis(testInfra().redisUrl);
    const app = await buildApp({
      config: testConfig({
        CHAT_URL: instances[0]!.url,
        CHAT_URLS: instances.map((i) => i.url).join(','),
        // 127.0.0.1's /api count is shared in Redis with every stack on the machine
        RATE_LIMIT_PER_MINUTE: '1000000',
      }),
      redis,
      logger: createLogger('gateway-test', 'warn'),
      publicKeyPem: sessions.publicKeyPem,
      identityProofSecret: Buffer.from(TEST_IDENTITY_PROOF_SECRET),
    });
    gateways.push({ app, redis });
    return app.listen({ port: 0, host: '127.0.0.1' });
  }

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
  };

  /** Two friends, as auth and social publish them. */
  async function friends(): Promise<[string, string]> {
    const [a, b] = [`ana-${randomUUID()}`, `ben-${randomUUID()}`];
    for (const [id, name] of [
      [a, 'Ana'],
      [b, 'Ben'],
    ] as const) {
      await publish(UserRegistered, id, {
        userId: id,
        name,
        email: `${id}@example.com`,
        profilePicture: '',
      });
    }
    await publish(FriendshipCreated, friendshipId(a, b), { userIds: [a, b] });
    return [a, b];
  }

  interface Client {
    userId: string;
    cookie: string;
    socket: Socket;
    received: string[];
    disconnects: string[];
    connects: number;
  }

  /** A client as the frontend's: socket.io's reconnection, and its own after a server disconnect. */
  function client(base: string, userId: string): Client {
    const cookie = sessions.cookie(userId);
    const socket = io(base, {
      path: CHAT_SOCKET_PATH,
      transports: ['websocket'],
      extraHeaders: { cookie },
      forceNew: true,
    });
    sockets.push(socket);
    const c: Client = { userId, cookie, socket, received: [], disconnects: [], connects: 0 };
    socket.on('connect', () => (c.connects += 1));
    socket.on('disconnect', (reason) => {
      c.disconnects.push(reason);
      if (reason === 'io server disconnect') socket.connect();
    });
    socket.on(ChatEvents.receiveMessage, (m: { text: string }) => c.received.push(m.text));
    return c;
  }

  const ack = <T>(c: Client, event: string, payload: unknown) =>
    c.socket.timeout(5_000).emitWithAck(event, payload) as Promise<T>;

  /** Joins the room of the two (once chat knows their friendship: its consumers may lag). */
  const join = (c: Client, room: string) =>
    vi.waitFor(
      async () => {
        expect(c.socket.connected).toBe(true);
        expect(await ack<{ ok: boolean }>(c, ChatEvents.join, room)).toEqual({ ok: true });
      },
      { timeout: 60_000, interval: 250 },
    );

  /** `from` sends `text`; it is acknowledged and reaches `to`. */
  async function say(from: Client, to: Client, text: string) {
    const answer = await ack<{ ok: boolean }>(from, ChatEvents.sendMessage, {
      to: to.userId,
      text,
    });
    expect(answer.ok, text).toBe(true);
    await vi.waitFor(() => expect(to.received).toContain(text));
  }

  beforeAll(async () => {
    await producer.connect();
    steady = await startChat();
  });

  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.disconnect();
    for (const { app, redis } of gateways.splice(0)) {
      await app.close();
      await redis.quit();
    }
  });

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop('SIGTERM')));
    await producer.disconnect();
    const admin = testKafka().admin();
    await admin.connect();
    const { groups } = await admin.listGroups();
    const ours = groups
      .map((g) => g.groupId)
      .filter((g) => g.startsWith(chatEnv.KAFKA_GROUP_PREFIX!));
    await admin.deleteGroups(ours).catch(() => undefined);
    await admin.disconnect();
    await dropMongoDatabase(chatEnv.MONGO_DB!);
  });

  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    // (a chat process of its own to start: generous on a busy machine)
    it(
      `moves a conversation to the other instance when one is ${signal === 'SIGTERM' ? 'stopped' : 'killed'}, nothing lost`,
      { timeout: 120_000 },
      async () => {
        const doomed = await startChat();
        const base = await gatewayOver([doomed, steady]);
        const [a, b] = await friends();
        const room = roomIdOf(a, b);
        // Ana on the instance that goes, Ben on the other (round-robin starts with the first; a
        // probe answered late on a busy machine may pass it over for a moment: Ana then again)
        let ana = client(base, a);
        await vi.waitFor(
          async () => {
            if (!ana.socket.connected || (await socketsOn(doomed)) !== 1) {
              ana.socket.disconnect();
              ana = client(base, a);
            }
            expect(ana.socket.connected).toBe(true);
            expect(await socketsOn(doomed)).toBe(1);
          },
          { timeout: 20_000, interval: 500 },
        );
        const ben = client(base, b);
        await join(ana, room);
        await join(ben, room);
        expect(await socketsOn(doomed)).toBe(1);
        await say(ana, ben, 'm1: before');
        await say(ben, ana, 'm2: before');

        await doomed.stop(signal);
        // Ana was on it: she is back, on the other instance (the only one left); Ben never left
        await vi.waitFor(
          () => {
            expect(ana.disconnects.length).toBeGreaterThan(0);
            expect(ana.socket.connected).toBe(true);
          },
          { timeout: RECONNECTED_WITHIN_MS, interval: 20 },
        );
        expect(ben.disconnects).toEqual([]);
        // the frontend joins its room again on every connect
        await join(ana, room);
        await say(ana, ben, 'm3: after');
        await say(ben, ana, 'm4: after');

        // the whole conversation, from whichever instance is up
        const res = await fetch(`${base}/api/conversation/${room}?limit=10`, {
          headers: { cookie: ana.cookie },
        });
        expect(res.status).toBe(200);
        const { conversation } = (await res.json()) as {
          conversation: { messages: { content: string }[] };
        };
        expect(conversation.messages.map((m) => m.content)).toEqual([
          'm1: before',
          'm2: before',
          'm3: after',
          'm4: after',
        ]);
      },
    );
  }
});
