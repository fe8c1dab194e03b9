/**
 * Journal lag benchmark: from publishing `trip.created` to the journal answering 200 for the
 * trip's destination, side by side with the baseline of a plain Kafka consumer (same broker,
 * same `maxWaitTimeInMs`) receiving that same message.
 *
 *   node --import tsx bench/journal/lag.bench.ts          (infra up: npm run infra:up)
 *
 * journal is booted by its composition root (`createService`) on its own database and consumer
 * groups. Each round publishes one trip; the baseline consumer notes when the message arrives,
 * and the journal is asked (every 5 ms, through Fastify's inject) until the destination reads.
 * Prints p50/p95/max of both and the ratio journal/baseline. Prints figures only; nothing here
 * is a test (the integration tests wait for the journal with vi.waitFor, never on a duration).
 * Its groups start at the topics' end and have joined before the first round (no history to
 * work off); warm-up rounds run until 5 in a row are under 250 ms, the other lag benches'
 * budget (`bench/lib/consumers.ts` `warmUp`).
 */
import { Partitioners } from 'kafkajs';
import { IdentityHeaders, makeEvent, Topics, TripCreated } from '@wayfarer/contracts';
import { groupId, loadConfig } from '@wayfarer/service-kit';
import {
  dropConsumerGroups,
  dropMongoDatabase,
  testKafka,
  testServiceEnv,
  throughGateway,
  uniqueSuffix,
} from '@wayfarer/test-kit';
import { CONSUMERS, createService, JournalEnv } from '@wayfarer/journal';
import { warmUp } from '../lib/consumers';
import { recordBudget } from '../lib/results';

/** Warm-up until this many ms, 5 rounds in a row (the other lag benches' budget). */
const STEADY_MS = 250;
const ROUNDS = 40;
const POLL_MS = 5;

const suffix = uniqueSuffix();
const env = loadConfig(JournalEnv, testServiceEnv({ MONGO_DB: `b_journal_${suffix}` }));
const svc = await createService(env, { skipHistory: true });
await svc.projections.started;

const kafka = testKafka(`bench-journal-${suffix}`);
const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
await producer.connect();
const baselineGroup = `bench-journal-baseline-${suffix}`;
const baseline = kafka.consumer({ groupId: baselineGroup, maxWaitTimeInMs: 100 });
await baseline.connect();
await baseline.subscribe({ topic: Topics.tripsTrip, fromBeginning: false });
const arrived = new Map<string, number>();
let joined!: () => void;
const baselineJoined = new Promise<void>((resolve) => (joined = resolve));
baseline.on(baseline.events.GROUP_JOIN, () => joined());
void baseline.run({
  eachMessage: async ({ message }) => {
    const key = message.key?.toString();
    if (key) arrived.set(key, performance.now());
  },
});
await baselineJoined;

const owner = `bench-owner-${suffix}`;
// as the gateway calls it: the owner's identity comes with an identity proof
const journal = throughGateway(svc.app);
const readable = async (destinationId: string) => {
  for (;;) {
    const res = await journal.inject({
      method: 'GET',
      url: `/api/journal/${destinationId}`,
      headers: { [IdentityHeaders.userId]: owner },
    });
    if (res.statusCode === 200) return;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
};

async function round(i: number): Promise<{ journal: number; kafka: number }> {
  const tripId = `bench-trip-${i}-${suffix}`;
  const destinationId = `bench-dest-${i}-${suffix}`;
  const event = makeEvent(TripCreated, tripId, {
    tripId,
    ownerId: owner,
    name: 'A trip',
    startDate: '2026-05-01',
    endDate: '2026-05-03',
    destinations: [
      {
        id: destinationId,
        name: 'Place',
        latitude: 10,
        longitude: 20,
        startDate: '2026-05-01',
        endDate: '2026-05-03',
        photos: [],
        storyPreview: '',
      },
    ],
  });
  const t0 = performance.now();
  await producer.send({
    topic: TripCreated.topic,
    acks: -1,
    messages: [{ key: tripId, value: JSON.stringify(event) }],
  });
  await readable(destinationId);
  const journal = performance.now() - t0;
  while (!arrived.has(tripId)) await new Promise((r) => setTimeout(r, POLL_MS));
  return { journal, kafka: arrived.get(tripId)! - t0 };
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const summary = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return { p50: pct(s, 50), p95: pct(s, 95), max: s.at(-1)! };
};
const fmt = (x: { p50: number; p95: number; max: number }) =>
  `p50 ${x.p50.toFixed(0)} ms, p95 ${x.p95.toFixed(0)} ms, max ${x.max.toFixed(0)} ms`;

try {
  const warm = await warmUp(async (i) => (await round(-1 - i)).journal, { belowMs: STEADY_MS });
  const journal: number[] = [];
  const raw: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const r = await round(i);
    journal.push(r.journal);
    raw.push(r.kafka);
  }
  const j = summary(journal);
  const k = summary(raw);
  console.log(
    `journal lag benchmark (Node ${process.version}), ${ROUNDS} trips after ${warm} warm-up`,
  );
  console.log(`  trip.created -> journal readable: ${fmt(j)}`);
  console.log(`  trip.created -> plain consumer:   ${fmt(k)}`);
  console.log(
    `  ratio journal/baseline: p50 ${(j.p50 / k.p50).toFixed(2)}, p95 ${(j.p95 / k.p95).toFixed(2)}`,
  );
  recordBudget({
    name: 'journal lag p95: readable / plain consumer',
    figure: j.p95,
    baseline: k.p95,
    unit: 'ms',
    budget: { none: true },
    note: `${ROUNDS} trips`,
  });
} finally {
  await baseline.disconnect();
  await producer.disconnect();
  await svc.close();
  await svc.projections.started.catch(() => undefined);
  await dropConsumerGroups([
    baselineGroup,
    ...Object.values(CONSUMERS).map((name) => groupId(env, name)),
  ]);
  await dropMongoDatabase(env.MONGO_DB);
}
