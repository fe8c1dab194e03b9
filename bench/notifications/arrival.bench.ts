/**
 * From a friend's action answered to its notification arriving on the other user's
 * socket, through Kafka, p99 under 250 ms, for each kind of notification:
 *
 * - **request**: R's `POST /api/add-friend/{A}` answered -> `friend_request` on A's socket
 *   (social's outbox -> Kafka -> notifications -> Redis -> chat -> socket); A then declines it
 *   (not timed), so R can ask again next round;
 * - **message**: B's `send_message` to A acknowledged, A connected but not in the conversation
 *   -> `message` (chat's outbox -> Kafka -> notifications -> Redis -> chat -> socket);
 * - **trip**: B's `POST /api/trips` answered -> `friend_trip` (trips' outbox -> Kafka -> social
 *   and notifications -> ...).
 *
 * Beside them, in the same rounds, the chat delivery floor as bench/chat/delivery.bench.ts
 * measures it: C's `send_message` emitted -> `receive_message` on D's socket, D in the room
 * (one socket.io hop over the Redis adapter, no Kafka). Each budget row carries the floor's p99
 * as its baseline for reading.
 *
 *   node --import tsx bench/notifications/arrival.bench.ts     (infra up: deploy/local/up)
 *
 * Starts its own stack (scripts/stack, namespace `benchnotif`, gateway 38380, services 343xx;
 * only what the paths cross: auth, trips, social, both chat instances, notifications, the
 * gateway). Users sign up through the gateway; every socket connects through it (the gateway
 * spreads them over the two chat instances). Rounds interleave the four paths, each round in
 * another order; the senders' messages rotate over several sockets (chat's per-socket rate).
 *
 * Measured (2 cores shared with other work, 2026-11-26): see bench/README.md.
 */
import { loadavg } from 'node:os';
import { io as connect, type Socket } from 'socket.io-client';
import {
  CHAT_SOCKET_PATH,
  ChatEvents,
  NOTIFICATION_SOCKET_EVENT,
  roomIdOf,
  type NotificationPushed,
  type ReceiveMessage,
  type SendMessageAck,
} from '@wayfarer/contracts';
import { startStack } from '../../scripts/stack/stack';
import { gatewayClient, type Account } from '../lib/accounts';
import { waitConsumersSteady, warmUp } from '../lib/consumers';
import { recordBudget } from '../lib/results';
import { percentile } from '../lib/stats';

const PORTS = {
  gateway: 38380,
  auth: 34301,
  trips: 34302,
  bucketlist: 34303,
  social: 34304,
  journal: 34305,
  chat: 34306,
  chat2: 34316,
  places: 34307,
  notifications: 34308,
};
const NAMESPACE = 'benchnotif';
const ROUNDS = Number(process.env.BENCH_ARRIVAL_ROUNDS ?? 100);
const BUDGET_MS = 250;
/** A measured round whose notification has not come after this long fails the run. */
const GIVE_UP_MS = 30_000;
/**
 * How long setup and the warm-up may wait: a new namespace's consumers first read the topics'
 * history (every other bench's and test's events).
 */
const SETUP_MS = 600_000;
let giveUpMs = SETUP_MS;
/** Sockets each sender rotates over (chat allows 10 messages per 5 s per socket). */
const SENDER_SOCKETS = 8;

process.env.RATE_LIMIT_PER_MINUTE = '1000000';
const stack = await startStack({
  namespace: NAMESPACE,
  ports: PORTS,
  logLevel: 'warn',
  only: ['auth', 'trips', 'social', 'chat', 'chat2', 'notifications', 'gateway'],
});
const base = `http://127.0.0.1:${PORTS.gateway}`;
const { call, signUp, poll } = gatewayClient(base);
const sockets: Socket[] = [];

function open(account: Account): Promise<Socket> {
  const socket = connect(base, {
    path: CHAT_SOCKET_PATH,
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    extraHeaders: { cookie: account.header },
  });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/** Resolves with the time (performance.now) of the first event on `socket` that `match`es. */
function arrival<T>(socket: Socket, event: string, match: (payload: T) => boolean) {
  let cancel = () => {};
  const promise = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, onEvent);
      reject(new Error(`no ${event} after ${giveUpMs} ms`));
    }, giveUpMs);
    const onEvent = (payload: T) => {
      if (!match(payload)) return;
      const at = performance.now();
      clearTimeout(timer);
      socket.off(event, onEvent);
      resolve(at);
    };
    socket.on(event, onEvent);
    cancel = () => {
      clearTimeout(timer);
      socket.off(event, onEvent);
    };
  });
  return { promise, cancel };
}

const notified = (socket: Socket, match: (n: NotificationPushed['notification']) => boolean) =>
  arrival<NotificationPushed>(socket, NOTIFICATION_SOCKET_EVENT, (p) => match(p.notification));

async function send(socket: Socket, to: string, text: string) {
  const ack = (await socket.timeout(giveUpMs).emitWithAck(ChatEvents.sendMessage, {
    to,
    text,
  })) as SendMessageAck;
  if (!ack.ok) throw new Error(`send_message: ${ack.error}`);
  return ack.message;
}

async function befriend(asker: Account, other: Account) {
  // social learns of users from auth's events: add-friend is 404 until it knows them
  await poll(
    'add-friend',
    async () => {
      const res = await call(`/api/add-friend/${other.userId}`, asker, { method: 'POST' });
      return res.status === 200;
    },
    SETUP_MS,
  );
  const res = await call(`/api/acceptFriend/${asker.userId}`, other, { method: 'POST' });
  if (res.status !== 200) throw new Error(`acceptFriend: ${res.status}`);
}

async function postTrip(account: Account, n: number): Promise<string> {
  const form = new FormData();
  form.append('name', `Arrival trip ${n}`);
  form.append('startDate', '2026-05-01');
  form.append('endDate', '2026-05-02');
  form.append('destinations[0][name]', `Stop ${n}`);
  form.append('destinations[0][startDate]', '2026-05-01');
  form.append('destinations[0][endDate]', '2026-05-02');
  form.append('destinations[0][latitude]', String(-40 + (n % 80)));
  form.append('destinations[0][longitude]', String(-120 + (n % 240)));
  form.append('destinations[0][story]', 'A short day.');
  const res = await call('/api/trips', account, { method: 'POST', body: form });
  if (res.status !== 201) throw new Error(`POST /api/trips: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { _id: string })._id;
}

try {
  const [a, b, r, c, d] = await Promise.all(
    ['Arrival Reader', 'Arrival Friend', 'Arrival Asker', 'Floor Sender', 'Floor Reader'].map(
      signUp,
    ),
  );
  await befriend(b!, a!);
  await befriend(c!, d!);
  const aSocket = await open(a!);
  const bSockets = await Promise.all(Array.from({ length: SENDER_SOCKETS }, () => open(b!)));
  const cSockets = await Promise.all(Array.from({ length: SENDER_SOCKETS }, () => open(c!)));
  const dSocket = await open(d!);
  const floorRoom = roomIdOf(c!.userId, d!.userId);
  // chat learns of the friendship from social's event: join is refused until then
  await poll(
    'D joins the floor room',
    async () => {
      const ack = (await dSocket.timeout(5000).emitWithAck(ChatEvents.join, floorRoom)) as {
        ok: boolean;
      };
      return ack.ok;
    },
    SETUP_MS,
  );
  // A is connected, in no conversation: B's messages notify A

  type Path = 'request' | 'message' | 'trip' | 'floor';
  const paths: Record<Path, (n: number) => Promise<number>> = {
    request: async () => {
      const wait = notified(
        aSocket,
        (x) => x.kind === 'friend_request' && x.actor.id === r!.userId,
      );
      const res = await call(`/api/add-friend/${a!.userId}`, r!, { method: 'POST' });
      const answered = performance.now();
      if (res.status !== 200) {
        wait.cancel();
        throw new Error(`add-friend: ${res.status} ${await res.text()}`);
      }
      const at = await wait.promise;
      const declined = await call(`/api/declineFriend/${r!.userId}`, a!, { method: 'POST' });
      if (declined.status !== 200) throw new Error(`declineFriend: ${declined.status}`);
      return at - answered;
    },
    message: async (n) => {
      let messageId = '';
      const wait = notified(
        aSocket,
        (x) => x.kind === 'message' && x.subject.messageId === messageId,
      );
      // the notification can only follow the ack (its event is relayed after the store)
      const message = await send(bSockets[n % SENDER_SOCKETS]!, a!.userId, `Hello ${n}`);
      const answered = performance.now();
      messageId = message._id;
      return (await wait.promise) - answered;
    },
    trip: async (n) => {
      let tripId = '';
      const wait = notified(
        aSocket,
        (x) => x.kind === 'friend_trip' && x.subject.tripId === tripId,
      );
      tripId = await postTrip(b!, n);
      const answered = performance.now();
      return (await wait.promise) - answered;
    },
    floor: async (n) => {
      const text = `Floor ${n}`;
      const wait = arrival<ReceiveMessage>(
        dSocket,
        ChatEvents.receiveMessage,
        (m) => m.text === text,
      );
      const sent = performance.now();
      await send(cSockets[n % SENDER_SOCKETS]!, d!.userId, text);
      return (await wait.promise) - sent;
    },
  };

  /** One round of the four paths, each round in another order; each path's delay. */
  const round = async (i: number): Promise<Record<Path, number>> => {
    const order = Object.keys(paths) as Path[];
    for (let k = 0; k < i % order.length; k++) order.push(order.shift()!);
    const delays = {} as Record<Path, number>;
    for (const path of order) {
      delays[path] = await paths[path](i).catch((err: unknown) => {
        throw new Error(`round ${i}, ${path}: ${(err as Error).message}`);
      });
    }
    return delays;
  };
  await waitConsumersSteady({ groupPrefix: `${NAMESPACE}-` });
  // steady when the slowest path of a round is under the budget, 5 rounds in a row
  const warm = await warmUp(async (i) => Math.max(...Object.values(await round(i))), {
    belowMs: BUDGET_MS,
  });
  giveUpMs = GIVE_UP_MS;
  const ms: Record<Path, number[]> = { request: [], message: [], trip: [], floor: [] };
  for (let i = warm; i < warm + ROUNDS; i++) {
    const delays = await round(i);
    for (const path of Object.keys(ms) as Path[]) ms[path].push(delays[path]);
  }

  const p = (path: Path, q: number) => percentile(ms[path], q);
  const load = loadavg()[0]!.toFixed(1);
  for (const path of Object.keys(ms) as Path[]) {
    console.log(
      `${path}: p50 ${p(path, 50).toFixed(1)} ms, p95 ${p(path, 95).toFixed(1)} ms, ` +
        `p99 ${p(path, 99).toFixed(1)} ms, max ${Math.max(...ms[path]).toFixed(1)} ms`,
    );
  }
  const floor = `the floor (C's send_message to receive_message on D's socket, as bench/chat/delivery measures it) p99, same rounds`;
  const rows: [Path, string][] = [
    ['request', "a friend request (add-friend answered) -> friend_request on the user's socket"],
    [
      'message',
      "a message (send_message acknowledged, user not in the room) -> message notification on the user's socket",
    ],
    ['trip', "a friend's new trip (POST /api/trips answered) -> friend_trip on the user's socket"],
  ];
  for (const [path, what] of rows) {
    recordBudget({
      name: `${what}, p99 / ${floor}`,
      figure: p(path, 99),
      baseline: p('floor', 99),
      unit: 'ms',
      budget: { figureBelow: BUDGET_MS },
      note:
        `${ROUNDS} interleaved rounds after the consumers were steady and ${warm} warm-up, real ` +
        `stack through the gateway, two ` +
        `chat instances; p50 ${p(path, 50).toFixed(1)} ms (floor ${p('floor', 50).toFixed(1)} ms); ` +
        `load average ${load} at the end`,
    });
  }
  recordBudget({
    name: 'chat delivery floor: send_message emitted -> receive_message on the friend’s socket, p99',
    figure: p('floor', 99),
    unit: 'ms',
    budget: { none: true },
    note: `p50 ${p('floor', 50).toFixed(1)} ms over ${ROUNDS} rounds beside the notifications above`,
  });
} finally {
  for (const s of sockets) s.disconnect();
  await stack.stop();
}
