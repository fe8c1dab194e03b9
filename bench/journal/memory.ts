/**
 * Journal memory under load: memory that grows over two one-minute load runs (156 to 326 MB
 * once) and does not come back when idle would be a leak. Is it one?
 *
 *   node --import tsx bench/journal/memory.ts          (infra up: npm run infra:up)
 *
 * journal runs in a child process (`memory-service.ts`: its composition root, listening on
 * loopback, `--expose-gc`, request logs at info as deployed). This process owns 50 destinations
 * (trip.created published to Kafka, read back through the projection), then runs autocannon
 * against the journal's port: GET and POST /api/journal (about 2 KB stories), each request with
 * the gateway's identity proof minted for it, RUNS runs of SECONDS each (env `RUNS`, default 3;
 * `SECONDS`, default 60; `CONNECTIONS`, default 20) separated by IDLE seconds (default 15).
 * Prints, after start-up and after each run: the RSS right after the run (no GC), every 10 s
 * while idle, and after the idle time and two full GCs, RSS / heap used / heap total / external / array buffers. With
 * `SNAPSHOTS=1` it also writes a heap snapshot after each run's GC into .data/bench/ and
 * prints the 15 constructors whose retained count grew most between the first and last.
 * Loopback only; every run is bounded by its duration. Figures only, no assertion.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Partitioners } from 'kafkajs';
import type { HeapInfo as HeapInfoOf } from 'node:v8';
import { makeEvent, Topics, TripCreated } from '@wayfarer/contracts';
import { identityProofHeaders } from '@wayfarer/service-kit';
import {
  dropConsumerGroups,
  dropMongoDatabase,
  repoRoot,
  TEST_IDENTITY_PROOF_SECRET,
  testKafka,
  uniqueSuffix,
} from '@wayfarer/test-kit';

const RUNS = Number(process.env.RUNS ?? 3);
const SECONDS = Number(process.env.SECONDS ?? 60);
const IDLE_SECONDS = Number(process.env.IDLE ?? 15);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 20);
const SNAPSHOTS = process.env.SNAPSHOTS === '1';
const DESTINATIONS = 50;

const secret = Buffer.from(TEST_IDENTITY_PROOF_SECRET);
const suffix = uniqueSuffix();
const owner = `mem-owner-${suffix}`;
const dbName = `b_journal_mem_${suffix}`;
const groupPrefix = `b-${suffix}-`;
const benchDir = join(repoRoot, '.data/bench');
mkdirSync(benchDir, { recursive: true });

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const port = await freePort();
const child: ChildProcess = fork(join(import.meta.dirname, 'memory-service.ts'), {
  execArgv: ['--expose-gc', '--import', 'tsx'],
  env: { ...process.env, PORT: String(port), MONGO_DB: dbName, KAFKA_GROUP_PREFIX: groupPrefix },
  stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
});
const exited = new Promise<never>((_, reject) =>
  child.once('exit', (code) => reject(new Error(`journal exited (${code})`))),
);
await Promise.race([
  new Promise<void>((resolve) =>
    child.on('message', (m: { ready?: boolean }) => m.ready && resolve()),
  ),
  exited,
]);

let nextId = 1;
function ask<T>(msg: Record<string, unknown>): Promise<T> {
  const id = nextId++;
  return new Promise<T>((resolve) => {
    const onMessage = (m: { id?: number }) => {
      if (m.id !== id) return;
      child.off('message', onMessage);
      resolve(m as T);
    };
    child.on('message', onMessage);
    child.send({ id, ...msg });
  });
}

const rssOf = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0) * 1024;
};
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const base = `http://127.0.0.1:${port}`;

const headersFor = (method: string, path: string) =>
  identityProofHeaders(
    { userId: owner, sessionId: null, sessionExpires: null, clientIp: '127.0.0.1' },
    { method, path },
    secret,
  );

// the destinations journal will know the owner of
const destinations = Array.from({ length: DESTINATIONS }, (_, i) => `mem${i}-${suffix}`);
const producer = testKafka().producer({ createPartitioner: Partitioners.DefaultPartitioner });
await producer.connect();
const tripId = `memtrip-${suffix}`;
const created = makeEvent(TripCreated, tripId, {
  tripId,
  ownerId: owner,
  name: 'Memory',
  startDate: '2026-05-01',
  endDate: '2026-05-09',
  destinations: destinations.map((id, i) => ({
    id,
    name: `Place ${i}`,
    latitude: 10,
    longitude: 20,
    startDate: '2026-05-01',
    endDate: '2026-05-03',
    photos: [],
    storyPreview: '',
  })),
});
await producer.send({
  topic: Topics.tripsTrip,
  messages: [{ key: tripId, value: JSON.stringify(created) }],
});
await producer.disconnect();
const last = `/api/journal/${destinations.at(-1)}`;
for (let i = 0; ; i++) {
  const res = await fetch(base + last, { headers: headersFor('GET', last) });
  if (res.status === 200) break;
  if (i > 600) throw new Error(`journal never learnt the destinations (${res.status})`);
  await sleep(50);
}

const story = 'A day by the sea. '.repeat(110); // ~2 KB
let n = 0;
async function run(): Promise<autocannon.Result> {
  return autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        setupRequest: (req) => {
          const destinationId = destinations[n++ % destinations.length]!;
          if (n % 3 === 0) {
            const path = '/api/journal';
            return {
              ...req,
              method: 'POST',
              path,
              headers: { 'content-type': 'application/json', ...headersFor('POST', path) },
              body: JSON.stringify({
                destinationId,
                content: `${story} #${n}`,
                date: new Date().toISOString(),
              }),
            };
          }
          const path = `/api/journal/${destinationId}`;
          return {
            ...req,
            method: 'GET',
            path,
            headers: { 'content-type': 'application/json', ...headersFor('GET', path) },
          };
        },
      },
    ],
  });
}

type Usage = NodeJS.MemoryUsage;
type HeapInfo = HeapInfoOf;

/** Resident anonymous and file-backed memory of a process (from /proc/<pid>/smaps_rollup). */
function anonymous(pid: number): { anon: number; file: number } {
  const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
  const anon = kb('Anonymous') * 1024;
  return { anon, file: kb('Rss') * 1024 - anon };
}
const rows: string[][] = [];
const snapshots: string[] = [];
const idleTraces: string[] = [];
async function measure(label: string, rssAfterLoad: number | null, extra = '') {
  // RSS every 10 s while idle: does journal give memory back by itself?
  const trace: string[] = [];
  for (let waited = 0; waited < IDLE_SECONDS * 1000; waited += 10_000) {
    trace.push(mb(rssOf(child.pid!)));
    await sleep(Math.min(10_000, IDLE_SECONDS * 1000 - waited));
  }
  idleTraces.push(`${label}: ${trace.join(' -> ')}`);
  const { usage, v8 } = await ask<{ usage: Usage; v8: HeapInfo }>({ kind: 'measure' });
  const smaps = anonymous(child.pid!);
  rows.push([
    label,
    rssAfterLoad === null ? '-' : mb(rssAfterLoad),
    mb(rssOf(child.pid!)),
    mb(usage.heapUsed),
    mb(usage.heapTotal),
    mb(usage.external),
    mb(usage.arrayBuffers),
    `${mb(v8.malloced_memory)} (${mb(v8.peak_malloced_memory)})`,
    `${mb(smaps.anon)} / ${mb(smaps.file)}`,
    extra,
  ]);
  if (SNAPSHOTS) {
    const path = join(benchDir, `journal-${suffix}-${snapshots.length}.heapsnapshot`);
    await ask({ kind: 'snapshot', path });
    snapshots.push(path);
  }
}

try {
  await measure('started (50 destinations)', null);
  for (let r = 1; r <= RUNS; r++) {
    const result = await run();
    const rss = rssOf(child.pid!);
    const codes = Object.entries(result.statusCodeStats ?? {})
      .map(([code, s]) => `${code}:${s.count}`)
      .join(' ');
    await measure(
      `after run ${r}`,
      rss,
      `${result.requests.total} req, ${Math.round(result.requests.average)}/s, p99 ${result.latency.p99} ms, ${codes}, errors ${result.errors}`,
    );
  }
} finally {
  child.kill('SIGTERM');
  await exited.catch(() => undefined);
  await dropConsumerGroups([`${groupPrefix}journal-trips`, `${groupPrefix}journal-friendships`]);
  await dropMongoDatabase(dbName);
}

const head = [
  'point',
  'RSS after load',
  `RSS idle ${IDLE_SECONDS}s + gc`,
  'heap used',
  'heap total',
  'external',
  'array buffers',
  'V8 malloc (peak)',
  'RSS anon / file',
  'load',
];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
console.log(
  `\njournal memory (MB), ${RUNS} runs of ${SECONDS} s, ${CONNECTIONS} connections, GET:POST 2:1`,
);
console.log(line(head));
for (const row of rows) console.log(line(row));
console.log('\nRSS while idle, every 10 s before the GC (MB):');
for (const trace of idleTraces) console.log(`  ${trace}`);

if (snapshots.length >= 2) {
  const count = (path: string) => {
    const snap = JSON.parse(readFileSync(path, 'utf8')) as {
      snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
      nodes: number[];
      strings: string[];
    };
    const fields = snap.snapshot.meta.node_fields;
    const [typeIx, nameIx, sizeIx] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
    const types = snap.snapshot.meta.node_types[0];
    const byName = new Map<string, { count: number; size: number }>();
    for (let i = 0; i < snap.nodes.length; i += fields.length) {
      const type = types[snap.nodes[i + typeIx!]!]!;
      const key = `${type}:${snap.strings[snap.nodes[i + nameIx!]!]!.slice(0, 60)}`;
      const e = byName.get(key) ?? { count: 0, size: 0 };
      e.count++;
      e.size += snap.nodes[i + sizeIx!]!;
      byName.set(key, e);
    }
    return byName;
  };
  const first = count(snapshots[1] ?? snapshots[0]!);
  const lastSnap = count(snapshots.at(-1)!);
  const growth = [...lastSnap.entries()]
    .map(([k, v]) => ({
      k,
      dc: v.count - (first.get(k)?.count ?? 0),
      ds: v.size - (first.get(k)?.size ?? 0),
    }))
    .sort((a, b) => b.ds - a.ds)
    .slice(0, 15);
  console.log('\nheap growth between the snapshot after run 1 and the last (by self size):');
  for (const g of growth)
    console.log(
      `  ${g.k.padEnd(70)} ${String(g.dc).padStart(8)} objects  ${(g.ds / 1024).toFixed(0).padStart(8)} KB`,
    );
  for (const path of snapshots) rmSync(path);
}
