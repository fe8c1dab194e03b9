/**
 * Chat delivery latency: from `send_message` on one user's socket to
 * `receive_message` on the friend's, p50 and p99, with PAIRS x 3 x 2 sockets connected, for the
 * classic and the sharded Redis adapter in one run:
 *
 * - **across**: through a gateway spreading upgrades over the two chat instances, the two friends
 *   on different instances (the message crosses Redis);
 * - **single**: through a gateway with one chat instance, both friends on it (the baseline);
 * - **bare**: a bare socket.io pair across two nodes over the same adapter, nothing else (the
 *   floor: no gateway, no session, no friendship check, no MongoDB insert).
 *
 *   node --import tsx bench/chat/delivery.bench.ts          (infra up: deploy/local/up)
 *
 * Every node is a process of its own (`chat-process.ts`); clients are in this process, on
 * loopback. Friendships reach chat as social's events (Kafka). Messages are sent at RATE per
 * second in rounds, the three paths interleaved round by round, each socket far under chat's
 * per-socket rate limit. Budget: across p99 within 2x of single p99.
 */
import { randomUUID } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Partitioners } from 'kafkajs';
import { io as connect, type Socket } from 'socket.io-client';
import {
  CHAT_SOCKET_PATH,
  ChatEvents,
  FriendshipCreated,
  friendshipId,
  makeEvent,
  roomIdOf,
  type EventEnvelope,
} from '@wayfarer/contracts';
import { groupId } from '@wayfarer/service-kit';
import {
  dropConsumerGroups,
  dropMongoDatabase,
  testInfra,
  testKafka,
  TEST_IDENTITY_PROOF_SECRET,
  uniqueSuffix,
} from '@wayfarer/test-kit';
import { CONSUMERS } from '@wayfarer/chat';
import { recordBudget } from '../lib/results';
import {
  quantile,
  sessionCookie,
  sessionPublicKeyPem,
  start,
  stop,
  type BenchProcess,
} from './processes';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
/** Friend pairs per path: 3 paths x PAIRS x 2 sockets connected (PAIRS x 4 on chat). */
const PAIRS = num('CHAT_BENCH_PAIRS', 130);
const ROUNDS = num('CHAT_BENCH_ROUNDS', 6);
const PER_ROUND = num('CHAT_BENCH_PER_ROUND', 120);
const RATE = num('CHAT_BENCH_RATE', 200); // messages per second
const WARMUP = 40;
const ADAPTERS = (process.env.CHAT_ADAPTERS ?? 'classic,sharded').split(',') as (
  'classic' | 'sharded'
)[];
const DELIVERY_TIMEOUT_MS = 10_000;
/** The adapter chat runs by default (services/chat/src/config.ts): the one the budget binds. */
const PRODUCT_ADAPTER = 'sharded';

type PathName = 'across' | 'single' | 'bare';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (line: string) => process.stdout.write(`[chat bench] ${line}\n`);

interface Pair {
  room: string;
  users: [string, string];
  sockets: [Socket, Socket];
}

/** Connects one socket and waits for it (no reconnection: a lost socket is a failed run). */
function open(url: string, headers: Record<string, string>): Promise<Socket> {
  const socket = connect(url, {
    path: CHAT_SOCKET_PATH,
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    extraHeaders: headers,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

const ack = <T>(socket: Socket, event: string, ...args: unknown[]) =>
  socket.timeout(DELIVERY_TIMEOUT_MS).emitWithAck(event, ...args) as Promise<T>;

async function measure(adapter: 'classic' | 'sharded') {
  const suffix = uniqueSuffix();
  const mongoDb = `bench_chat_${suffix}`;
  const groupPrefix = `bench-chat-${suffix}-`;
  const chatEnv = { MONGO_DB: mongoDb, KAFKA_GROUP_PREFIX: groupPrefix, CHAT_ADAPTER: adapter };
  const redisUrl = testInfra().redisUrl;
  const procs: BenchProcess[] = [];
  const sockets: Socket[] = [];
  try {
    const chat1 = await start('chat', chatEnv);
    const chat2 = await start('chat', chatEnv);
    procs.push(chat1, chat2);
    const gatewayEnv = (urls: string[]) => ({
      REDIS_URL: redisUrl,
      CHAT_URL: urls[0]!,
      CHAT_URLS: urls.join(','),
      SESSION_PUBLIC_KEY: sessionPublicKeyPem,
      IDENTITY_PROOF_SECRET: TEST_IDENTITY_PROOF_SECRET,
    });
    const across = await start('gateway', gatewayEnv([chat1.url, chat2.url]));
    const single = await start('gateway', gatewayEnv([chat1.url]));
    const bare1 = await start('bare', { REDIS_URL: redisUrl, CHAT_ADAPTER: adapter });
    const bare2 = await start('bare', { REDIS_URL: redisUrl, CHAT_ADAPTER: adapter });
    procs.push(across, single, bare1, bare2);

    // the friendships, as social publishes them
    const userPairs = (path: PathName) =>
      Array.from({ length: PAIRS }, (_, i): [string, string] => [
        `${path}-${i}-a-${suffix}`,
        `${path}-${i}-b-${suffix}`,
      ]);
    const producer = testKafka().producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    const friendships = [...userPairs('across'), ...userPairs('single')];
    await producer.send({
      topic: FriendshipCreated.topic,
      acks: -1,
      messages: friendships.map(([a, b]) => {
        const event = makeEvent(FriendshipCreated, friendshipId(a, b), { userIds: [a, b] });
        return { key: friendshipId(a, b), value: JSON.stringify(event as EventEnvelope) };
      }),
    });
    await producer.disconnect();

    // connect: through a gateway, one upgrade at a time, so that the round-robin puts the two
    // friends of an `across` pair on different instances; `bare`: one friend on each node
    const cookie = (userId: string) => ({
      cookie: sessionCookie(userId),
    });
    const pairs: Record<PathName, Pair[]> = { across: [], single: [], bare: [] };
    for (const path of ['across', 'single', 'bare'] as const) {
      for (const users of userPairs(path)) {
        const urls =
          path === 'across'
            ? [across.url, across.url]
            : path === 'single'
              ? [single.url, single.url]
              : [bare1.url, bare2.url];
        const headers = (u: string) => (path === 'bare' ? {} : cookie(u));
        const a = await open(urls[0]!, headers(users[0]));
        const b = await open(urls[1]!, headers(users[1]));
        sockets.push(a, b);
        pairs[path].push({ room: roomIdOf(...users), users, sockets: [a, b] });
      }
    }
    log(`${adapter}: ${sockets.length} sockets connected (${PAIRS * 4} on chat)`);

    // join: chat accepts once its projection holds the friendship (polled)
    const deadline = Date.now() + 60_000;
    for (const path of ['across', 'single', 'bare'] as const) {
      for (const pair of pairs[path]) {
        for (const socket of pair.sockets) {
          for (;;) {
            const res = await ack<{ ok: boolean }>(socket, ChatEvents.join, pair.room);
            if (res.ok) break;
            if (Date.now() > deadline) throw new Error(`join ${pair.room} refused: friendship?`);
            await sleep(100);
          }
        }
      }
    }

    // the receiving side: latency by clientId, counted on the friend's socket only
    const pending = new Map<string, { at: number; receiver: Socket; path: PathName }>();
    const samples: Record<PathName, number[]> = { across: [], single: [], bare: [] };
    /** Each round's p99 per path: one stalled round shows here (the machine is shared). */
    const roundP99: Record<PathName, number[]> = { across: [], single: [], bare: [] };
    let failed = 0;
    let recording = false;
    for (const socket of sockets) {
      socket.on(ChatEvents.receiveMessage, (m: { clientId?: string }) => {
        const sent = m.clientId === undefined ? undefined : pending.get(m.clientId);
        if (!sent || sent.receiver !== socket) return;
        pending.delete(m.clientId!);
        if (recording) samples[sent.path].push(performance.now() - sent.at);
      });
    }

    let turn = 0;
    const sendOne = (path: PathName, i: number) => {
      const pair = pairs[path][i % PAIRS]!;
      // alternate direction each time a pair comes round: each socket sends rarely
      const from = (Math.floor(i / PAIRS) + turn) % 2;
      const sender = pair.sockets[from]!;
      const receiver = pair.sockets[1 - from]!;
      const clientId = randomUUID();
      pending.set(clientId, { at: performance.now(), receiver, path });
      const payload =
        path === 'bare'
          ? { room: pair.room, clientId, text: 'hello', timestamp: Date.now() }
          : {
              to: pair.users[1 - from],
              from: pair.users[from],
              text: 'hello',
              timestamp: Date.now(),
              clientId,
            };
      ack<{ ok: boolean }>(sender, ChatEvents.sendMessage, payload).then(
        (res) => {
          if (!res.ok) failed += 1;
        },
        () => (failed += 1),
      );
    };
    const round = async (path: PathName, count: number) => {
      const t0 = performance.now();
      for (let i = 0; i < count; i++) {
        sendOne(path, i);
        const wait = t0 + ((i + 1) * 1000) / RATE - performance.now();
        if (wait > 0) await sleep(wait);
      }
      const until = Date.now() + DELIVERY_TIMEOUT_MS;
      while (pending.size > 0 && Date.now() < until) await sleep(5);
      const lost = pending.size;
      pending.clear();
      turn += 1;
      return lost;
    };

    for (const path of ['across', 'single', 'bare'] as const) await round(path, WARMUP);
    recording = true;
    let lost = 0;
    const order: PathName[] = ['across', 'single', 'bare'];
    for (let r = 0; r < ROUNDS; r++) {
      for (const path of r % 2 === 0 ? order : [...order].reverse()) {
        const before = samples[path].length;
        lost += await round(path, PER_ROUND);
        const got = samples[path].slice(before).sort((x, y) => x - y);
        roundP99[path].push(quantile(got, 0.99));
      }
    }

    const stats = Object.fromEntries(
      (Object.keys(samples) as PathName[]).map((path) => {
        const sorted = [...samples[path]].sort((x, y) => x - y);
        return [
          path,
          { n: sorted.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) },
        ];
      }),
    ) as Record<PathName, { n: number; p50: number; p99: number }>;
    return { stats, roundP99, lost, failed, sockets: sockets.length };
  } finally {
    for (const s of sockets) s.disconnect();
    for (const p of procs.reverse()) await stop(p);
    await dropConsumerGroups(
      Object.values(CONSUMERS).map((name) => groupId({ KAFKA_GROUP_PREFIX: groupPrefix }, name)),
    );
    await dropMongoDatabase(mongoDb);
  }
}

const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
for (const adapter of ADAPTERS) {
  const load = loadavg()[0]!;
  const { stats, roundP99, lost, failed, sockets } = await measure(adapter);
  log(
    `${adapter} adapter, ${sockets} sockets, ${RATE}/s, ${ROUNDS} rounds of ${PER_ROUND} per path` +
      ` (lost ${lost}, refused ${failed}; load average ${load.toFixed(1)} -> ${loadavg()[0]!.toFixed(1)})`,
  );
  for (const path of ['across', 'single', 'bare'] as const) {
    const s = stats[path];
    log(
      `  ${path.padEnd(6)} n=${s.n}  p50 ${fmt(s.p50)}  p99 ${fmt(s.p99)}` +
        `  (p99 by round: ${roundP99[path].map((x) => x.toFixed(1)).join(', ')})`,
    );
  }
  log(
    `  product (across) vs floor (bare pair): p50 ${(stats.across.p50 / stats.bare.p50).toFixed(1)}x` +
      `, p99 ${(stats.across.p99 / stats.bare.p99).toFixed(1)}x` +
      ` (field notes' floor: p50 0.5-1 ms, p99 3-6 ms)`,
  );
  const note = `${sockets} sockets (${PAIRS * 4} on chat), ${RATE} msg/s, ${ROUNDS} interleaved rounds of ${PER_ROUND}; lost ${lost}, refused ${failed}; 1-min load average ${load.toFixed(1)} on ${availableParallelism()} CPUs at start`;
  recordBudget({
    name: `chat delivery p99 (${adapter} adapter): across two instances via the gateway / one instance via the gateway`,
    figure: stats.across.p99,
    baseline: stats.single.p99,
    unit: 'ms',
    // the budget binds the adapter the product runs (chat's CHAT_ADAPTER default); the other one
    // is measured beside it for the comparison the service README quotes
    budget: adapter === PRODUCT_ADAPTER ? { ratioAtMost: 2 } : { none: true },
    note,
  });
  recordBudget({
    name: `chat delivery p50 (${adapter} adapter): across two instances via the gateway / one instance via the gateway`,
    figure: stats.across.p50,
    baseline: stats.single.p50,
    unit: 'ms',
    budget: { none: true },
    note,
  });
  for (const q of ['p50', 'p99'] as const) {
    recordBudget({
      name: `chat delivery ${q} (${adapter} adapter): across two instances via the gateway / bare socket.io pair over the same adapter (the floor)`,
      figure: stats.across[q],
      baseline: stats.bare[q],
      unit: 'ms',
      budget: { none: true },
      note,
    });
  }
  if (lost > 0 || failed > 0) process.exitCode = 1;
}
