/**
 * The account export: `GET /api/export` of a user with ~2 GB of photos against a plain
 * sequential read of the same objects from MinIO, side by side in the same run.
 *
 *   node --import tsx bench/trips/export.bench.ts
 *
 * trips runs in a process of its own (`process.ts`); this process is the client. Seeded: photo
 * objects of 10 MB of random bytes put straight into the trips process's bucket through
 * storage's ObjectStore (BENCH_EXPORT_BYTES in all, default 2 GiB: 200 objects), and trip
 * documents pointing at them as originals (`benchTrips`, 10 photos a trip). Then in alternating
 * rounds (BENCH_EXPORT_ROUNDS, default 2 each):
 * - baseline: every original read one after the other from MinIO (`ObjectStore.get`, minio-js'
 *   ordinary read, the bytes counted and dropped; the export reads with `readLarge`);
 * - the export: `GET /api/export` from the trips process, signed as the gateway signs it, the
 *   bytes counted and dropped, while the process's VmRSS (/proc/<pid>/status) is sampled every
 *   50 ms.
 * Budgets: the export's throughput (archive bytes per second, best round) / the plain read's
 * (best round) >= 0.7; the trips process's peak RSS growth during an export (peak minus the RSS
 * just before it, worst round) under 100 MB. A small export (2 photos) runs first, its growth
 * printed (info): it shows what loading the export's code costs, apart from the streaming. The other services' areas are not running here (their addresses
 * are a closed port): each answers at once with a refused connection, listed as missing.
 * The objects go with the bucket when the process stops.
 */
import { randomBytes } from 'node:crypto';
import { fork } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';
import { MongoClient } from 'mongodb';
import { ObjectStore } from '@wayfarer/storage';
import { gatewayHeaders, testInfra } from '@wayfarer/test-kit';
import { recordBudget } from '../lib/results';
import { benchTrips, insertTrips, startTripsProcess } from './process';

const OBJECT_BYTES = 10 * 1024 * 1024;
const TOTAL_BYTES = Number(process.env.BENCH_EXPORT_BYTES ?? 2 * 1024 ** 3);
const ROUNDS = Number(process.env.BENCH_EXPORT_ROUNDS ?? 2);
const OBJECTS = Math.max(10, Math.round(TOTAL_BYTES / OBJECT_BYTES / 10) * 10);
const RATIO_BUDGET = 0.7;
const RSS_BUDGET = 100 * 1024 * 1024;
const owner = `bench-exporter-${Date.now()}`;
/** A small account exported once first: what a process pays on its first export (below). */
const warmOwner = `${owner}-warm-up`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** A loopback address nothing listens on: the other areas, refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const down = `http://127.0.0.1:${await closedPort()}`;
for (const key of ['AUTH_URL', 'BUCKETLIST_URL', 'SOCIAL_URL', 'JOURNAL_URL', 'CHAT_URL']) {
  process.env[key] = down;
}

/** CPU seconds a process has used (user + system, /proc/<pid>/stat; 100 ticks a second). */
const cpuSeconds = (pid: number | 'self'): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

const vmRss = (pid: number): number => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
};

const trips = await startTripsProcess('export');
const client = await MongoClient.connect(testInfra().mongoUrl);
const infra = testInfra();
// process.ts names the bucket after the database: bench_<name>_<suffix>, bench-<name>-<suffix>
const bucket = trips.mongoDb.replace(/^bench_export_/, 'bench-export-');
const store = ObjectStore.connect({
  endpoint: infra.s3.endpoint,
  accessKey: infra.s3.accessKey,
  secretKey: infra.s3.secretKey,
  region: 'us-east-1',
  bucket,
});
try {
  // seed: trip documents, then an object of 10 MB behind every original they name
  const docs = benchTrips({
    count: OBJECTS / 10,
    owner,
    destinations: 5,
    name: (t) => `Exported trip ${t}`,
    story: (n) => 'word '.repeat(n).trim(),
  });
  const originals = docs.flatMap((t) =>
    t.destinations.flatMap((d) => d.photos.map((p) => p.original)),
  );
  const bytes = randomBytes(OBJECT_BYTES);
  const seedStart = performance.now();
  for (const [i, original] of originals.entries()) {
    bytes.writeUInt32BE(i, 0); // each object its own
    original.bytes = OBJECT_BYTES;
    await store.put(original.key, bytes, 'image/jpeg');
  }
  await insertTrips(client, trips.mongoDb, docs);
  const warmDocs = benchTrips({
    count: 1,
    owner: warmOwner,
    destinations: 1,
    name: () => 'Warm-up trip',
    story: (n) => 'word '.repeat(n).trim(),
  });
  for (const p of warmDocs.flatMap((t) => t.destinations.flatMap((d) => d.photos))) {
    p.original.bytes = 1024 * 1024;
    await store.put(p.original.key, bytes.subarray(0, 1024 * 1024), 'image/jpeg');
  }
  await insertTrips(client, trips.mongoDb, warmDocs);
  const total = originals.length * OBJECT_BYTES;
  console.log(
    `seeded ${originals.length} objects, ${mb(total)}, in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
  );

  const plainRead = async () => {
    const started = performance.now();
    let read = 0;
    for (const original of originals) {
      const stream = await store.get(original.key);
      if (!stream) throw new Error(`missing ${original.key}`);
      for await (const chunk of stream) read += (chunk as Buffer).length;
    }
    const seconds = (performance.now() - started) / 1000;
    if (read !== total) throw new Error(`read ${read} of ${total} bytes`);
    return { bytesPerSecond: read / seconds, seconds };
  };

  // the floor: the same objects through a bare HTTP relay in a process of its own
  const keysFile = join(tmpdir(), `export-bench-keys-${process.pid}`);
  writeFileSync(keysFile, originals.map((o) => o.key).join('\n'));
  const relay = fork(fileURLToPath(new URL('./relay-process.ts', import.meta.url)), {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, RELAY_BUCKET: bucket, RELAY_KEYS_FILE: keysFile },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  process.once('exit', () => relay.kill('SIGTERM'));
  const relayPort = await new Promise<number>((resolve, reject) => {
    relay.once('message', (msg: { port: number }) => resolve(msg.port));
    relay.once('exit', (code) => reject(new Error(`the relay exited with ${code}`)));
  });
  const relayRound = () =>
    new Promise<number>((resolve, reject) => {
      const started = performance.now();
      let received = 0;
      request({ host: '127.0.0.1', port: relayPort, path: '/' }, (res) => {
        res.on('data', (chunk: Buffer) => (received += chunk.length));
        res.on('end', () => {
          if (received !== total) reject(new Error(`the relay sent ${received} of ${total}`));
          resolve(received / ((performance.now() - started) / 1000));
        });
        res.on('error', reject);
      })
        .on('error', reject)
        .end();
    });

  const exportRound = (userId = owner) =>
    new Promise<{
      bytesPerSecond: number;
      seconds: number;
      rssGrowth: number;
      bytes: number;
      tripsCpu: number;
    }>((resolve, reject) => {
      const before = vmRss(trips.pid);
      const cpuBefore = cpuSeconds(trips.pid);
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, vmRss(trips.pid));
      }, 50);
      const started = performance.now();
      let received = 0;
      const req = request(
        {
          host: '127.0.0.1',
          port: trips.port,
          path: '/api/export',
          headers: gatewayHeaders('GET', '/api/export', { userId }),
        },
        (res) => {
          if (res.statusCode !== 200) {
            clearInterval(sampler);
            reject(new Error(`GET /api/export: ${res.statusCode}`));
            return;
          }
          res.on('data', (chunk: Buffer) => (received += chunk.length));
          res.on('end', () => {
            clearInterval(sampler);
            peak = Math.max(peak, vmRss(trips.pid));
            const seconds = (performance.now() - started) / 1000;
            resolve({
              bytesPerSecond: received / seconds,
              seconds,
              rssGrowth: peak - before,
              bytes: received,
              tripsCpu: cpuSeconds(trips.pid) - cpuBefore,
            });
          });
          res.on('error', reject);
        },
      );
      req.on('error', (err) => {
        clearInterval(sampler);
        reject(err);
      });
      req.end();
    });

  // A small export first: what loading the export's code (the ZIP writer, the MinIO reads, the
  // areas' requests) costs, apart from streaming (measured: about 4 MB). The first large export
  // then grows RSS the most (heap and freed socket buffers the allocator keeps: about the same
  // at 300 MB and at 2 GB, so not per byte), later ones less; the budget takes the worst.
  const warm = await exportRound(warmOwner);
  console.log(`warm-up: a first export (2 photos) grew trips' RSS by ${mb(warm.rssGrowth)}`);

  const plain: number[] = [];
  const exported: number[] = [];
  const growth: number[] = [];
  const relayed: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const a = await plainRead();
    plain.push(a.bytesPerSecond);
    const b = await exportRound();
    if (b.bytes < total) throw new Error(`the archive has ${b.bytes} bytes, the photos ${total}`);
    exported.push(b.bytesPerSecond);
    const c = await relayRound();
    relayed.push(c);
    growth.push(b.rssGrowth);
    console.log(
      `round ${round + 1}: plain read ${mb(a.bytesPerSecond)}/s (${a.seconds.toFixed(1)} s), ` +
        `export ${mb(b.bytesPerSecond)}/s (${b.seconds.toFixed(1)} s, ${mb(b.bytes)}), ` +
        `trips RSS growth ${mb(b.rssGrowth)}, trips CPU ${b.tripsCpu.toFixed(1)} s ` +
        `(${((100 * b.tripsCpu) / b.seconds).toFixed(0)}% of a core), bare relay ${mb(c)}/s, ` +
        `load average ${loadavg()[0]!.toFixed(1)}`,
    );
  }
  recordBudget({
    name: `GET /api/export of ${mb(total)} of photos / a plain sequential read of the same objects from MinIO`,
    figure: Math.max(...exported) / 1024 / 1024,
    baseline: Math.max(...plain) / 1024 / 1024,
    unit: 'MB/s',
    budget: { ratioAtLeast: RATIO_BUDGET },
    note: `${originals.length} objects of 10 MB, best of ${ROUNDS} alternating rounds each`,
  });
  recordBudget({
    name: `the same objects through a bare Node HTTP relay (the floor of serving them through a process) / the plain read`,
    figure: Math.max(...relayed) / 1024 / 1024,
    baseline: Math.max(...plain) / 1024 / 1024,
    unit: 'MB/s',
    budget: { none: true },
    note: 'info: what any service relaying the bytes reaches here; the export / the relay is the ZIP and the service',
  });
  relay.kill('SIGTERM');
  rmSync(keysFile, { force: true });
  recordBudget({
    name: `trips' RSS growth on its first export, a small one (2 photos: the export's code loaded)`,
    figure: warm.rssGrowth,
    baseline: null,
    unit: 'bytes',
    budget: { none: true },
    note: 'info: before the measured exports',
  });
  recordBudget({
    name: `trips' peak RSS growth during GET /api/export of ${mb(total)}`,
    figure: Math.max(...growth),
    baseline: null,
    unit: 'bytes',
    budget: { figureBelow: RSS_BUDGET },
    note: `VmRSS sampled every 50 ms; worst of ${ROUNDS} exports (the first large one is the worst)`,
  });
} finally {
  await client.close();
  await trips.stop();
}
