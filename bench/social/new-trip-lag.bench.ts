/**
 * How soon a friend's new trip shows in `GET /api/friends` (budget: p99 under 250 ms
 * after the trip's POST is answered), against the real stack.
 *
 *   node --import tsx bench/social/new-trip-lag.bench.ts     (infra up: deploy/local/up)
 *
 * Starts its own stack (scripts/stack, namespace `benchsocial`, gateway 38180, services 341xx,
 * so it can run beside bench/web's), signs up A and B and befriends them through the gateway.
 * Then, ROUNDS times: B posts a small trip (one destination, no photo); from the moment the
 * POST is answered, A polls `/api/friends` back to back until the trip is in B's trips; the
 * delay is the time until the first answer that holds it. Path: trips' outbox -> Kafka
 * `trips.trip.v1` -> social's consumer -> its read model. The gateway's per-address rate limit
 * is raised for this stack only (the polls are all from one address).
 *
 * Measured only once the stack's consumers are steady (`bench/lib/consumers.ts`): every
 * consumer group of the namespace joined and caught up with what the shared topics held when
 * the bench began (a stack started a minute before still worked off what every other stack
 * and test published since its groups last ran: its first rounds read 933 ms and more), then
 * warm-up rounds until 5 in a row are under the budget. The baseline, for reading: a plain
 * kafkajs consumer in this process (its own group, `maxWaitTimeInMs` 100 like the services')
 * receiving the same trip's `trip.created`, from the same POST answer: the outbox relay and
 * Kafka, without social.
 */
import { loadavg } from 'node:os';
import { Topics, type Friend } from '@wayfarer/contracts';
import { dropConsumerGroups, testKafka, uniqueSuffix } from '@wayfarer/test-kit';
import { startStack } from '../../scripts/stack/stack';
import { gatewayClient, type Account } from '../lib/accounts';
import { waitConsumersSteady, warmUp } from '../lib/consumers';
import { recordBudget } from '../lib/results';

const PORTS = {
  gateway: 38180,
  auth: 34101,
  trips: 34102,
  bucketlist: 34103,
  social: 34104,
  journal: 34105,
  chat: 34106,
  chat2: 34116,
  places: 34107,
  notifications: 34108,
};
const NAMESPACE = 'benchsocial';
const ROUNDS = Number(process.env.BENCH_SOCIAL_ROUNDS ?? 100);
const BUDGET_MS = 250;
/** A round that has not seen its trip after this long fails the run (not a measurement). */
const GIVE_UP_MS = 30_000;

/** The machine's load when the bench began (other work on the 2 cores shows here). */
const loadAtStart = loadavg()[0]!.toFixed(1);
process.env.RATE_LIMIT_PER_MINUTE = '1000000';
const stack = await startStack({ namespace: NAMESPACE, ports: PORTS, logLevel: 'warn' });
const base = `http://127.0.0.1:${PORTS.gateway}`;

const { call, signUp } = gatewayClient(base);

/** Polls `until` back to back until it holds; throws after `GIVE_UP_MS`. */
async function poll(what: string, until: () => Promise<boolean>): Promise<void> {
  const deadline = performance.now() + GIVE_UP_MS;
  while (!(await until())) {
    if (performance.now() > deadline) throw new Error(`${what}: not after ${GIVE_UP_MS} ms`);
  }
}

async function friendsOf(account: Account): Promise<Friend[]> {
  const res = await call('/api/friends', account);
  if (res.status !== 200) throw new Error(`GET /api/friends: ${res.status}`);
  return (await res.json()) as Friend[];
}

/** B posts a one-destination trip; returns its id once the POST is answered. */
async function postTrip(account: Account, n: number): Promise<string> {
  const form = new FormData();
  form.append('name', `Lag trip ${n}`);
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

/** When the baseline consumer received each trip's event (by trip id, performance.now()). */
const received = new Map<string, number>();
const baselineGroup = `bench-new-trip-baseline-${uniqueSuffix()}`;
const baseline = testKafka(baselineGroup).consumer({
  groupId: baselineGroup,
  maxWaitTimeInMs: 100,
});

try {
  await baseline.connect();
  await baseline.subscribe({ topic: Topics.tripsTrip, fromBeginning: false });
  const joined = new Promise<void>((resolve) =>
    baseline.on(baseline.events.GROUP_JOIN, () => resolve()),
  );
  await baseline.run({
    eachMessage: async ({ message }) => {
      const key = message.key?.toString();
      if (key && !received.has(key)) received.set(key, performance.now());
    },
  });
  await joined;

  const a = await signUp('Lag Reader');
  const b = await signUp('Lag Writer');
  // social learns of both users from auth's events: add-friend is 404 until it has B
  await poll('B known to social', async () => {
    const res = await call(`/api/add-friend/${b.userId}`, a, { method: 'POST' });
    return res.status === 200;
  });
  const accepted = await call(`/api/acceptFriend/${a.userId}`, b, { method: 'POST' });
  if (accepted.status !== 200) throw new Error(`acceptFriend: ${accepted.status}`);

  /**
   * One round: ms from the POST's answer to the first /api/friends answer holding the trip, and
   * to the baseline consumer's receipt of its event.
   */
  const round = async (n: number): Promise<{ friends: number; kafka: number }> => {
    const tripId = await postTrip(b, n);
    const answered = performance.now();
    let seenAt = 0;
    await poll(`trip ${n} in A's /api/friends`, async () => {
      const friends = await friendsOf(a);
      const seen = friends.some((f) => f.id === b.userId && f.trips.some((t) => t._id === tripId));
      if (seen) seenAt = performance.now();
      return seen;
    });
    await poll(`trip ${n}'s event at the baseline consumer`, async () => {
      if (!received.has(tripId)) await new Promise((resolve) => setTimeout(resolve, 5));
      return received.has(tripId);
    });
    return { friends: seenAt - answered, kafka: received.get(tripId)! - answered };
  };

  await waitConsumersSteady({ groupPrefix: `${NAMESPACE}-` });
  const warm = await warmUp(async (i) => (await round(i)).friends, { belowMs: BUDGET_MS });
  const delays: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const r = await round(warm + i);
    delays.push(r.friends);
    floor.push(r.kafka);
  }

  const pct = (xs: number[], p: number) => {
    const s = [...xs].sort((x, y) => x - y);
    return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
  };
  const line = (xs: number[]) =>
    `p50 ${pct(xs, 50).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)} ms, ` +
    `p99 ${pct(xs, 99).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms`;
  console.log(
    `a friend's new trip in /api/friends after its POST is answered, ${ROUNDS} rounds: ${line(delays)}`,
  );
  console.log(`(baseline) its trip.created at a plain consumer: ${line(floor)}`);
  recordBudget({
    name: "a friend's new trip shows in GET /api/friends after its POST is answered, p99 / its trip.created at a plain Kafka consumer, p99",
    figure: pct(delays, 99),
    baseline: pct(floor, 99),
    unit: 'ms',
    budget: { figureBelow: BUDGET_MS },
    note:
      `${ROUNDS} rounds after the consumers were steady and ${warm} warm-up, real stack through ` +
      `the gateway: trips' outbox -> Kafka -> social's consumer; A polls back to back, p50 ` +
      `${pct(delays, 50).toFixed(1)} ms (plain consumer p50 ${pct(floor, 50).toFixed(1)} ms); ` +
      `load average ${loadAtStart} at the start, ${loadavg()[0]!.toFixed(1)} at the end`,
  });
} finally {
  await baseline.disconnect().catch(() => undefined);
  await stack.stop();
  await dropConsumerGroups([baselineGroup]);
}
