/**
 * How soon a friend's change to a saved trip shows in `GET /api/friends` (budget: p99
 * under 250 ms after the trip's PATCH is answered), against the real stack.
 *
 *   node --import tsx bench/social/edit-lag.bench.ts     (infra up: deploy/local/up)
 *
 * Starts its own stack (scripts/stack, namespace `benchedit`, gateway 38280, services 342xx,
 * so it can run beside bench/web's and new-trip-lag's), signs up A and B and befriends them
 * through the gateway; B saves a trip of 5 destinations. Then, ROUNDS times: B renames the trip
 * and changes a destination's name (`PATCH /api/trips/{id}` with the ETag of its last answer);
 * from the moment the PATCH is answered, A polls `/api/friends` back to back until B's trip
 * there has the new name; the delay is the time until the first answer that holds it. Path:
 * trips' outbox -> Kafka `trips.trip.v1` (`trip.updated`) -> social's consumer -> its read
 * model (and its friends cache, dropped by the row's notification). The baseline, for reading:
 * the same delay for a new trip's POST (`new-trip-lag.bench.ts`'s path), measured in the same
 * rounds. The gateway's per-address rate limit is raised for this stack only. Measured once the
 * stack's consumers are steady and after warm-up rounds until 5 in a row are under the budget
 * (`bench/lib/consumers.ts`, as `new-trip-lag.bench.ts`).
 */
import { loadavg } from 'node:os';
import type { Friend, Trip } from '@wayfarer/contracts';
import { startStack } from '../../scripts/stack/stack';
import { gatewayClient, type Account } from '../lib/accounts';
import { waitConsumersSteady, warmUp } from '../lib/consumers';
import { recordBudget } from '../lib/results';

const PORTS = {
  gateway: 38280,
  auth: 34201,
  trips: 34202,
  bucketlist: 34203,
  social: 34204,
  journal: 34205,
  chat: 34206,
  chat2: 34216,
  places: 34207,
  notifications: 34208,
};
const NAMESPACE = 'benchedit';
const ROUNDS = Number(process.env.BENCH_EDIT_ROUNDS ?? 100);
const BUDGET_MS = 250;
/** A round that has not seen its change after this long fails the run (not a measurement). */
const GIVE_UP_MS = 30_000;
/** How long the stack may take to know the users it signed up (its consumers catching up). */
const SETUP_MS = 600_000;

process.env.RATE_LIMIT_PER_MINUTE = '1000000';
const stack = await startStack({ namespace: NAMESPACE, ports: PORTS, logLevel: 'warn' });
const base = `http://127.0.0.1:${PORTS.gateway}`;

const { call, signUp } = gatewayClient(base);

/** Polls `until` back to back until it holds; throws after `giveUpMs`. */
async function poll(
  what: string,
  until: () => Promise<boolean>,
  giveUpMs: number = GIVE_UP_MS,
): Promise<void> {
  const deadline = performance.now() + giveUpMs;
  while (!(await until())) {
    if (performance.now() > deadline) throw new Error(`${what}: not after ${giveUpMs} ms`);
  }
}

async function friendsOf(account: Account): Promise<Friend[]> {
  const res = await call('/api/friends', account);
  if (res.status !== 200) throw new Error(`GET /api/friends: ${res.status}`);
  return (await res.json()) as Friend[];
}

/** B posts a trip of `destinations` stops; its id and ETag once the POST is answered. */
async function postTrip(
  account: Account,
  name: string,
  destinations: number,
): Promise<{ trip: Trip; etag: string }> {
  const form = new FormData();
  form.append('name', name);
  form.append('startDate', '2026-05-01');
  form.append('endDate', '2026-05-10');
  for (let i = 0; i < destinations; i++) {
    form.append(`destinations[${i}][name]`, `Stop ${i}`);
    form.append(`destinations[${i}][latitude]`, String(40 + i));
    form.append(`destinations[${i}][longitude]`, String(10 + i));
    form.append(`destinations[${i}][story]`, 'A day of walking and a night of rain.');
  }
  const res = await call('/api/trips', account, { method: 'POST', body: form });
  if (res.status !== 201) throw new Error(`POST /api/trips: ${res.status} ${await res.text()}`);
  return { trip: (await res.json()) as Trip, etag: res.headers.get('etag')! };
}

/** Polls A's `/api/friends` from now until `holds` of B's trip `tripId` (undefined: absent); the ms. */
async function seenAfter(
  a: Account,
  b: Account,
  tripId: string,
  holds: (trip: Friend['trips'][number] | undefined) => boolean,
): Promise<number> {
  const from = performance.now();
  let seenAt = 0;
  await poll(`trip ${tripId} in A's /api/friends`, async () => {
    const friends = await friendsOf(a);
    const trip = friends.find((f) => f.id === b.userId)?.trips.find((t) => t._id === tripId);
    if (holds(trip)) seenAt = performance.now();
    return seenAt > 0;
  });
  return seenAt - from;
}

try {
  const a = await signUp('Edit Reader');
  const b = await signUp('Edit Writer');
  // social learns of both users from auth's events: add-friend is 404 until it has B (a new
  // stack's consumer groups read the topics' whole history first: minutes on a busy machine)
  await poll(
    'B known to social',
    async () => {
      const res = await call(`/api/add-friend/${b.userId}`, a, { method: 'POST' });
      if (res.status !== 200) await new Promise((r) => setTimeout(r, 200));
      return res.status === 200;
    },
    SETUP_MS,
  );
  const accepted = await call(`/api/acceptFriend/${a.userId}`, b, { method: 'POST' });
  if (accepted.status !== 200) throw new Error(`acceptFriend: ${accepted.status}`);

  const saved = await postTrip(b, 'Edited trip', 5);
  const trip = saved.trip;
  let etag = saved.etag;
  // the first trip of the run: social's trips consumer may still be catching up
  await poll(
    "the trip in A's /api/friends",
    async () => (await friendsOf(a)).some((f) => f.trips.some((t) => t._id === trip._id)),
    SETUP_MS,
  );

  /** One edit: ms from the PATCH's answer to the first /api/friends answer holding it. */
  const edit = async (n: number): Promise<number> => {
    const name = `Edited trip ${n}`;
    const res = await call(`/api/trips/${trip._id}`, b, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'if-match': etag },
      body: JSON.stringify({
        name,
        destinations: trip.destinations.map((d, i) =>
          i === n % trip.destinations.length
            ? { _id: d._id, name: `Stop ${i}, visit ${n}` }
            : { _id: d._id },
        ),
      }),
    });
    if (res.status !== 200) throw new Error(`PATCH: ${res.status} ${await res.text()}`);
    etag = res.headers.get('etag')!;
    return seenAfter(a, b, trip._id, (shown) => shown?.name === name);
  };
  /**
   * B makes the trip private (`visibility` in a PATCH): ms from the answer until A's
   * `/api/friends` no longer has it; then back to `friends` (until it is there again).
   */
  const setVisibility = async (visibility: 'private' | 'friends'): Promise<number> => {
    const res = await call(`/api/trips/${trip._id}`, b, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'if-match': etag },
      body: JSON.stringify({ visibility }),
    });
    if (res.status !== 200) throw new Error(`PATCH: ${res.status} ${await res.text()}`);
    etag = res.headers.get('etag')!;
    return seenAfter(a, b, trip._id, (shown) =>
      visibility === 'private' ? shown === undefined : shown !== undefined,
    );
  };
  /** The baseline: the same for a new trip's POST. */
  const create = async (n: number): Promise<number> => {
    const { trip: created } = await postTrip(b, `New trip ${n}`, 1);
    return seenAfter(a, b, created._id, (shown) => shown !== undefined);
  };

  await waitConsumersSteady({ groupPrefix: `${NAMESPACE}-` });
  // a warm-up round is all four paths; steady when the slowest of them is under the budget
  const warm = await warmUp(
    async (i) =>
      Math.max(
        await edit(i),
        await create(i),
        await setVisibility('private'),
        await setVisibility('friends'),
      ),
    { belowMs: BUDGET_MS },
  );
  const edits: number[] = [];
  const creates: number[] = [];
  const hides: number[] = [];
  const shows: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    edits.push(await edit(warm + i));
    creates.push(await create(warm + i));
    hides.push(await setVisibility('private'));
    shows.push(await setVisibility('friends'));
  }

  const pct = (xs: number[], p: number) => {
    const s = [...xs].sort((x, y) => x - y);
    return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
  };
  const line = (xs: number[]) =>
    `p50 ${pct(xs, 50).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)} ms, ` +
    `p99 ${pct(xs, 99).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms`;
  console.log(`a friend's trip change in /api/friends after its PATCH is answered: ${line(edits)}`);
  console.log(`(baseline) a friend's new trip after its POST is answered: ${line(creates)}`);
  console.log(`a trip made private gone from the friend's /api/friends: ${line(hides)}`);
  console.log(`a trip made visible to friends again back in it: ${line(shows)}`);
  recordBudget({
    name: "a friend's trip change shows in GET /api/friends after its PATCH is answered, p99 / a new trip's after its POST, p99",
    figure: pct(edits, 99),
    baseline: pct(creates, 99),
    unit: 'ms',
    budget: { figureBelow: BUDGET_MS },
    note:
      `${ROUNDS} rounds of each, interleaved, after the consumers were steady and ${warm} ` +
      `warm-up, real stack through the ` +
      `gateway: trips' outbox -> Kafka -> social's consumer; A polls back to back; edit p50 ` +
      `${pct(edits, 50).toFixed(1)} ms, new trip p50 ${pct(creates, 50).toFixed(1)} ms; load ` +
      `average ${loadavg()[0]!.toFixed(1)} (the machine's, at the end)`,
  });
  recordBudget({
    name: "a trip made private is gone from a friend's GET /api/friends after its PATCH is answered, p99 / a change's, p99",
    figure: pct(hides, 99),
    baseline: pct(edits, 99),
    unit: 'ms',
    budget: { figureBelow: BUDGET_MS },
    note:
      `${ROUNDS} rounds, interleaved with the rows above: PATCH {visibility: ` +
      `'private'} -> trip.updated -> social; private p50 ${pct(hides, 50).toFixed(1)} ms; back ` +
      `to friends p50 ${pct(shows, 50).toFixed(1)} ms, p99 ${pct(shows, 99).toFixed(1)} ms`,
  });
} finally {
  await stack.stop();
}
