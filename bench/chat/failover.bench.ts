/**
 * Chat failover: how long a client whose chat instance goes away is without a socket,
 * from its `disconnect` to its next `connect`, through the gateway. Budget: under 2 s, for every
 * client, whether the instance is stopped (SIGTERM: its graceful shutdown, as the stack runner's
 * `stopProcess` and Kubernetes do) or killed (SIGKILL: a crash).
 *
 *   node --import tsx bench/chat/failover.bench.ts          (infra up: deploy/local/up)
 *
 * Two chat instances and the gateway, each a process of its own (`chat-process.ts`); CLIENTS
 * socket.io clients set up as the frontend's (`frontend/src/chat/socket.ts`: websocket transport,
 * socket.io's default reconnection, and a reconnect of its own when the server disconnects it)
 * connect one after the other, so the gateway's round-robin puts half of them on the instance
 * that then goes away (asked of the instance over IPC). Each round starts that instance again on
 * its port first. The baseline: as many fresh clients as are about to move, connecting all at
 * once through the gateway (their worst connect), measured in the same round just before.
 * Printed beside: the part of the figure that is socket.io's own reconnection delay (0.5 to
 * 1.5 s after a dropped connection; none after a server disconnect, which is what the gateway
 * sends a client whose instance vanished).
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { io as connect, type Socket } from 'socket.io-client';
import { CHAT_SOCKET_PATH } from '@wayfarer/contracts';
import { groupId } from '@wayfarer/service-kit';
import {
  dropConsumerGroups,
  dropMongoDatabase,
  testInfra,
  TEST_IDENTITY_PROOF_SECRET,
  uniqueSuffix,
} from '@wayfarer/test-kit';
import { CHAT_PROBE_INTERVAL_MS } from '@wayfarer/gateway';
import { CONSUMERS } from '@wayfarer/chat';
import { recordBudget } from '../lib/results';
import {
  quantile,
  sessionCookie,
  sessionPublicKeyPem,
  socketsOn,
  start,
  stop,
  type BenchProcess,
} from './processes';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
/** Clients per round: half of them on the instance that goes away. */
const CLIENTS = num('CHAT_FAILOVER_CLIENTS', 40);
/** Rounds per way of going away (SIGTERM, SIGKILL). */
const ROUNDS = num('CHAT_FAILOVER_ROUNDS', 3);
const BUDGET_MS = 2_000;
/** A client not back after this is counted as not back (and fails the budget). */
const GIVE_UP_MS = 30_000;

const log = (line: string) => process.stdout.write(`[chat failover] ${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Client {
  socket: Socket;
  /** Its first connect, from `io()` to `connect` (ms). */
  connectMs: number;
  /** Times it lost its socket (more than once: it was sent back to the instance going away). */
  drops: number;
  disconnectedAt?: number;
  /** When socket.io tried again (its reconnection delay is over, or the client's own connect). */
  attemptAt?: number;
  backAt?: number;
}

/** A client as the frontend's, connected; its reconnection timed. */
async function client(base: string): Promise<Client> {
  const cookie = sessionCookie(`user-${randomUUID()}`);
  const socket = connect(base, {
    path: CHAT_SOCKET_PATH,
    transports: ['websocket'],
    extraHeaders: { cookie },
    forceNew: true,
  });
  const t0 = performance.now();
  const c: Client = { socket, drops: 0, connectMs: 0 };
  socket.on('disconnect', (reason) => {
    c.drops += 1;
    c.disconnectedAt ??= performance.now();
    if (reason === 'io server disconnect') {
      c.attemptAt ??= performance.now();
      socket.connect();
    }
  });
  socket.io.on('reconnect_attempt', () => (c.attemptAt ??= performance.now()));
  socket.on('connect', () => {
    if (c.disconnectedAt !== undefined) c.backAt ??= performance.now();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  c.connectMs = performance.now() - t0;
  return c;
}

interface Round {
  moved: number;
  /** Clients that lost their socket again after the first time. */
  again: number;
  /** Disconnect to connect again, per client that was on the instance (ms). */
  back: number[];
  /** Of which socket.io's own delay before trying again. */
  waited: number[];
  /** The worst connect of as many fresh clients as moved, connecting all at once (ms). */
  burst: number[];
  notBack: number;
}

async function round(
  base: string,
  doomed: () => Promise<BenchProcess>,
  signal: 'SIGTERM' | 'SIGKILL',
): Promise<Round> {
  const instance = await doomed();
  const clients: Client[] = [];
  try {
    // until the gateway's probe has put the started instance back in turn (within its
    // interval), every client lands on the other one: connected again until some are on it
    let on = 0;
    while (on === 0) {
      await sleep(CHAT_PROBE_INTERVAL_MS);
      for (const c of clients.splice(0)) c.socket.disconnect();
      for (let i = 0; i < CLIENTS; i++) clients.push(await client(base));
      on = await socketsOn(instance);
    }
    // the baseline: as many clients as are about to move, connecting all at once
    const burst = await Promise.all(Array.from({ length: on }, () => client(base)));
    for (const c of burst) c.socket.disconnect();
    const burstWorst = Math.max(...burst.map((c) => c.connectMs));
    await stop(instance, signal);
    // every client that was on it has lost its socket (a killed instance's connections end a
    // little after its exit), then each is back or given up on
    const deadline = performance.now() + GIVE_UP_MS;
    const lost = () => clients.filter((c) => c.disconnectedAt !== undefined);
    const settled = () => lost().length >= on && lost().every((c) => c.backAt !== undefined);
    while (!settled() && performance.now() < deadline) await sleep(10);
    const moved = clients.filter((c) => c.disconnectedAt !== undefined);
    const back = moved.filter((c) => c.backAt !== undefined);
    return {
      moved: moved.length,
      again: moved.filter((c) => c.drops > 1).length,
      back: back.map((c) => c.backAt! - c.disconnectedAt!),
      waited: back.map((c) => (c.attemptAt ?? c.backAt!) - c.disconnectedAt!),
      notBack: moved.length - back.length,
      burst: [burstWorst],
    };
  } finally {
    for (const c of clients) c.socket.disconnect();
  }
}

const suffix = uniqueSuffix();
const mongoDb = `bench_chat_failover_${suffix}`;
const groupPrefix = `bench-chat-failover-${suffix}-`;
const chatEnv = { MONGO_DB: mongoDb, KAFKA_GROUP_PREFIX: groupPrefix };
const procs: BenchProcess[] = [];
try {
  const steady = await start('chat', chatEnv);
  procs.push(steady);
  // the instance that goes away: started again on its own port each round
  let doomedPort: number | undefined;
  const doomed = async () => {
    const proc = await start('chat', chatEnv, doomedPort);
    doomedPort = proc.port;
    procs.push(proc);
    return proc;
  };
  const first = await doomed();
  const gateway = await start('gateway', {
    REDIS_URL: testInfra().redisUrl,
    CHAT_URL: first.url,
    CHAT_URLS: [first.url, steady.url].join(','),
    SESSION_PUBLIC_KEY: sessionPublicKeyPem,
    IDENTITY_PROOF_SECRET: TEST_IDENTITY_PROOF_SECRET,
  });
  procs.push(gateway);
  await stop(first); // each round starts it itself

  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    const load = loadavg()[0]!;
    const all: Round = { moved: 0, again: 0, back: [], waited: [], burst: [], notBack: 0 };
    for (let r = 0; r < ROUNDS; r++) {
      const one = await round(gateway.url, doomed, signal);
      log(
        `${signal} round ${r + 1}: ${one.moved} of ${CLIENTS} clients on it, back in` +
          ` ${one.back.map((ms) => ms.toFixed(0)).join(', ')} ms` +
          (one.again ? `; ${one.again} lost it again` : '') +
          (one.notBack ? `; ${one.notBack} not back after ${GIVE_UP_MS} ms` : ''),
      );
      all.moved += one.moved;
      all.again += one.again;
      all.back.push(...one.back);
      all.waited.push(...one.waited);
      all.burst.push(...one.burst);
      all.notBack += one.notBack;
    }
    const sorted = (xs: number[]) => [...xs].sort((x, y) => x - y);
    const back = sorted(all.back);
    const waited = sorted(all.waited);
    const burst = sorted(all.burst);
    const worst = all.notBack > 0 ? GIVE_UP_MS : back[back.length - 1]!;
    const ms = (x: number) => `${x.toFixed(0)} ms`;
    const what = signal === 'SIGTERM' ? 'stopped (SIGTERM)' : 'killed (SIGKILL)';
    log(
      `${what}: worst ${ms(worst)} (budget: under ${BUDGET_MS} ms), p50 ${ms(quantile(back, 0.5))};` +
        ` socket.io's own delay in it: worst ${ms(waited[waited.length - 1]!)};` +
        ` as many fresh clients connecting at once: worst ${ms(burst[burst.length - 1]!)}`,
    );
    recordBudget({
      name: `chat client back on another instance after its instance is ${what}, worst client / as many fresh clients connecting at once, worst`,
      figure: worst,
      baseline: burst[burst.length - 1]!,
      unit: 'ms',
      budget: { figureBelow: BUDGET_MS },
      note:
        `${all.moved} clients moved over ${ROUNDS} rounds (${CLIENTS} connected each), p50` +
        ` ${ms(quantile(back, 0.5))}, lost their socket again ${all.again}, not back` +
        ` ${all.notBack}; socket.io's own wait before trying again: worst` +
        ` ${ms(waited[waited.length - 1]!)}; 1-min load average ${load.toFixed(1)}`,
    });
    if (all.notBack > 0 || all.moved === 0) process.exitCode = 1;
  }
} finally {
  for (const p of procs.reverse()) await stop(p);
  await dropConsumerGroups(
    Object.values(CONSUMERS).map((name) => groupId({ KAFKA_GROUP_PREFIX: groupPrefix }, name)),
  );
  await dropMongoDatabase(mongoDb);
}
