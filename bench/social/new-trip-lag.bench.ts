/**
 * How soon a friend's new trip shows in `GET /api/friends` (issue 11 budget: p99 under 250 ms
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
 */
import { loadavg } from 'node:os';
import type { Friend } from '@wayfarer/contracts';
import { startStack } from '../../scripts/stack/stack';
import { gatewayClient, type Account } from '../lib/accounts';
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
const WARMUP = 5;
const ROUNDS = Number(process.env.BENCH_SOCIAL_ROUNDS ?? 100);
const BUDGET_MS = 250;
/** A round that has not seen its trip after this long fails the run (not a measurement). */
const GIVE_UP_MS = 30_000;

process.env.RATE_LIMIT_PER_MINUTE = '1000000';
const stack = await startStack({ namespace: 'benchsocial', ports: PORTS, logLevel: 'warn' });
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

try {
  const a = await signUp('Lag Reader');
  const b = await signUp('Lag Writer');
  // social learns of both users from auth's events: add-friend is 404 until it has B
  await poll('B known to social', async () => {
    const res = await call(`/api/add-friend/${b.userId}`, a, { method: 'POST' });
    return res.status === 200;
  });
  const accepted = await call(`/api/acceptFriend/${a.userId}`, b, { method: 'POST' });
  if (accepted.status !== 200) throw new Error(`acceptFriend: ${accepted.status}`);

  /** One round: ms from the POST's answer to the first /api/friends answer holding the trip. */
  const round = async (n: number): Promise<number> => {
    const tripId = await postTrip(b, n);
    const answered = performance.now();
    let seenAt = 0;
    await poll(`trip ${n} in A's /api/friends`, async () => {
      const friends = await friendsOf(a);
      const seen = friends.some((f) => f.id === b.userId && f.trips.some((t) => t._id === tripId));
      if (seen) seenAt = performance.now();
      return seen;
    });
    return seenAt - answered;
  };

  for (let i = 0; i < WARMUP; i++) await round(i);
  const delays: number[] = [];
  for (let i = 0; i < ROUNDS; i++) delays.push(await round(WARMUP + i));

  const pct = (xs: number[], p: number) => {
    const s = [...xs].sort((x, y) => x - y);
    return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
  };
  console.log(
    `a friend's new trip in /api/friends after its POST is answered, ${ROUNDS} rounds: ` +
      `p50 ${pct(delays, 50).toFixed(1)} ms, p95 ${pct(delays, 95).toFixed(1)} ms, ` +
      `p99 ${pct(delays, 99).toFixed(1)} ms, max ${Math.max(...delays).toFixed(1)} ms`,
  );
  recordBudget({
    name: "a friend's new trip shows in GET /api/friends after its POST is answered, p99",
    figure: pct(delays, 99),
    unit: 'ms',
    budget: { figureBelow: BUDGET_MS },
    note:
      `${ROUNDS} rounds after ${WARMUP} warm-up, real stack through the gateway: trips' outbox ` +
      `-> Kafka -> social's consumer; A polls back to back, p50 ${pct(delays, 50).toFixed(1)} ms; ` +
      `load average ${loadavg()[0]!.toFixed(1)} (the machine's, at the end)`,
  });
} finally {
  await stack.stop();
}
