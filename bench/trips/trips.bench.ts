/**
 * trips benchmark: the trips list, and reads while photos are uploaded.
 *
 *   node --import tsx bench/trips/trips.bench.ts
 *
 * trips runs in a process of its own (`service.ts`: its composition root, listening on a port,
 * a fresh database and bucket on the local infra); this process is the client, over HTTP with
 * keep-alive, each request carrying a freshly minted gateway identity proof (test-kit
 * `gatewayHeaders`: a proof binds method and path and lives 60 s).
 *
 * 1. `GET /api/mytrips` of an owner with 100 trips x 5 destinations (stories of 300-1,500
 *    characters, 2 photos each) against `GET /api/trips/{id}` of one of them, interleaved
 *    rounds at 4 connections: p95 within 3x, and the answer under 60 KB. The list is mostly
 *    answered from trips' cache (`MyTripsCache`, kept while the owner's list version holds; the
 *    hit rate is printed), so the rounds also measure, for information, the list right after a
 *    write to its owner (a cache miss: the owner's list version bumped in MongoDB before each
 *    request, as a write does): list version, `listSummaries` and the join.
 * 2. `GET /api/mytrips` (2 connections) without uploads, then during four concurrent 3-photo
 *    uploads (2 MB JPEGs: gradients and noise made with sharp), the window lasting until the
 *    uploads are answered and their display variants made; rounds alternate: p95 during
 *    uploads within 2x of p95 without.
 * Prints figures and records each budget (bench/lib/results.ts); no test asserts on them.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, brotliDecompressSync, constants as zlib } from 'node:zlib';
import { MongoClient } from 'mongodb';
import sharp from 'sharp';
import {
  dropBucket,
  dropConsumerGroups,
  dropMongoDatabase,
  gatewayHeaders,
  multipartBody,
  testInfra,
  uniqueSuffix,
} from '@wayfarer/test-kit';
import { benchTrips, freePort, insertTrips } from './process';
import { recordBudget } from '../lib/results';
import { percentile } from '../lib/stats';

const TRIPS = 100;
const DESTINATIONS = 5;
const LIST_ROUNDS = 6;
const REQUESTS_PER_ROUND = 150;
const UPLOAD_ROUNDS = 3;
const UPLOADS = 4;
const PHOTOS_PER_UPLOAD = 3;

const suffix = uniqueSuffix();
const MONGO_DB = `bench_trips_${suffix}`;
const PHOTO_BUCKET = `bench-photos-${suffix}`;
const KAFKA_GROUP_PREFIX = `bench-${suffix}-`;
const owner = `bench-owner-${suffix}`;
const uploader = `bench-uploader-${suffix}`;

const ms = (v: number) => `${v.toFixed(2)} ms`;

// --- the service --------------------------------------------------------------------------
const port = await freePort();
const child: ChildProcess = fork(fileURLToPath(new URL('./service.ts', import.meta.url)), {
  execArgv: ['--import', 'tsx'],
  env: { ...process.env, MONGO_DB, PHOTO_BUCKET, PORT: String(port), KAFKA_GROUP_PREFIX },
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
await new Promise<void>((resolve, reject) => {
  child.once('message', () => resolve());
  child.once('exit', (code) => reject(new Error(`trips exited with ${code}`)));
});
let nextId = 0;
interface CacheStats {
  hits: number;
  misses: number;
  shared: number;
}
type Answer = { id?: number; stats?: CacheStats };
const ask = (kind: 'idle' | 'stats') =>
  new Promise<Answer>((resolve) => {
    const id = ++nextId;
    const onMessage = (msg: Answer) => {
      if (msg.id !== id) return;
      child.off('message', onMessage);
      resolve(msg);
    };
    child.on('message', onMessage);
    child.send({ id, kind });
  });
const cacheStats = async () => (await ask('stats')).stats!;
/** What the cache did: hits, list reads (misses), reads that shared a concurrent one. */
interface CacheUse {
  hits: number;
  reads: number;
  shared: number;
}
const noUse = (): CacheUse => ({ hits: 0, reads: 0, shared: 0 });
/** Adds to `use` what the cache did between two `cacheStats()`. */
const addUse = (use: CacheUse, a: CacheStats, b: CacheStats) => {
  use.hits += b.hits - a.hits;
  use.reads += b.misses - a.misses;
  use.shared += b.shared - a.shared;
};
const describeUse = ({ hits, reads, shared }: CacheUse) => {
  const all = hits + reads + shared;
  if (all === 0) return 'cache off (MYTRIPS_CACHE_MAX_BYTES=0)';
  return (
    `${hits} of ${all} from the cache (hit rate ${((100 * hits) / all).toFixed(1)}%), ` +
    `${reads} read the list, ${shared} shared a concurrent read`
  );
};

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

/** One request; resolves with its latency and body size (throws on a non-2xx). */
function call(
  method: string,
  path: string,
  userId: string,
  body?: { payload: Buffer; headers: Record<string, string> },
): Promise<{ ms: number; bytes: number; text: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: {
          // what a browser sends through the gateway, which forwards it
          'accept-encoding': 'gzip, deflate, br',
          ...gatewayHeaders(method, path, { userId }),
          ...(body?.headers ?? {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const ms = performance.now() - started; // the answer received (decoding is the client's)
          const raw = Buffer.concat(chunks);
          const text = (
            res.headers['content-encoding'] === 'br' ? brotliDecompressSync(raw) : raw
          ).toString();
          if ((res.statusCode ?? 500) >= 300) {
            reject(new Error(`${method} ${path}: ${res.statusCode} ${text}`));
            return;
          }
          resolve({ ms, bytes: Buffer.byteLength(text), text });
        });
      },
    );
    req.on('error', reject);
    req.end(body?.payload);
  });
}

/**
 * `count` requests of `path` over `connections` closed loops; their latencies. `before` runs
 * before each request, outside its latency.
 */
async function load(
  path: string,
  count: number,
  connections: number,
  before?: () => Promise<unknown>,
): Promise<number[]> {
  const latencies: number[] = [];
  let left = count;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (left-- > 0) {
        await before?.();
        latencies.push((await call('GET', path, owner)).ms);
      }
    }),
  );
  return latencies;
}

/** Requests of `path` over `connections` loops until `until` settles; their latencies. */
async function loadDuring(path: string, connections: number, until: Promise<unknown>) {
  const latencies: number[] = [];
  let done = false;
  void until.finally(() => (done = true));
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (!done) latencies.push((await call('GET', path, owner)).ms);
    }),
  );
  return latencies;
}

const client = await MongoClient.connect(testInfra().mongoUrl);
try {
  // --- seed: 100 trips x 5 destinations, written as trips writes them ----------------------
  // stories of varied words (a fixed seed), so they compress like text, not like a repeat
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const words = Array.from({ length: 400 }, () =>
    Array.from({ length: 3 + Math.floor(random() * 7) }, () =>
      String.fromCharCode(97 + Math.floor(random() * 26)),
    ).join(''),
  );
  const story = (n: number) =>
    Array.from({ length: n }, () => words[Math.floor(random() * words.length)]).join(' ');
  const docs = benchTrips({
    count: TRIPS,
    owner,
    destinations: DESTINATIONS,
    name: (t) => `Trip number ${t} through the north`,
    story,
    endDate: '2025-08-20',
    createdAt: (t) => new Date(Date.now() - (TRIPS - t) * 1000),
  });
  // stored as the service's insert stores them (TripsStore.insert): the list's summary made
  await insertTrips(client, MONGO_DB, docs);
  // what a write to the owner's trips does besides the write: its list version bumped
  const listVersions = client.db(MONGO_DB).collection<{ _id: string; v: number }>('list_versions');
  const bump = () => listVersions.updateOne({ _id: owner }, { $inc: { v: 1 } }, { upsert: true });
  const oneTrip = `/api/trips/${docs[50]!._id}`;

  console.log(`trips benchmark (Node ${process.version}), trips on port ${port}`);

  // --- 1. the list against one trip ----------------------------------------------------------
  const list = await call('GET', '/api/mytrips', owner);
  const detail = await call('GET', oneTrip, owner);
  const fullStoryBytes = docs.reduce(
    (sum, t) => sum + t.destinations.reduce((s, d) => s + Buffer.byteLength(d.story), 0),
    0,
  );
  console.log(
    `GET /api/mytrips: ${(JSON.parse(list.text) as unknown[]).length} trips, ${list.bytes} bytes` +
      ` (${(list.bytes / TRIPS).toFixed(0)} per trip; the stories alone are ${fullStoryBytes} bytes);` +
      ` GET /api/trips/{id}: ${detail.bytes} bytes`,
  );
  await load('/api/mytrips', 100, 4); // warm-up
  await load(oneTrip, 100, 4);
  const listMs: number[] = [];
  const detailMs: number[] = [];
  const missMs: number[] = [];
  const listUse = noUse();
  const missUse = noUse();
  const orders = [
    ['list', 'detail', 'miss'],
    ['detail', 'miss', 'list'],
    ['miss', 'list', 'detail'],
  ] as const;
  for (let round = 0; round < LIST_ROUNDS; round++) {
    for (const which of orders[round % orders.length]!) {
      if (which === 'detail') {
        detailMs.push(...(await load(oneTrip, REQUESTS_PER_ROUND, 4)));
        continue;
      }
      const before = await cacheStats();
      if (which === 'list') {
        listMs.push(...(await load('/api/mytrips', REQUESTS_PER_ROUND, 4)));
        addUse(listUse, before, await cacheStats());
      } else {
        missMs.push(...(await load('/api/mytrips', REQUESTS_PER_ROUND, 4, bump)));
        addUse(missUse, before, await cacheStats());
      }
    }
  }
  console.log(
    `mytrips p50 ${ms(percentile(listMs, 50))} p95 ${ms(percentile(listMs, 95))} ` +
      `(${describeUse(listUse)}); ` +
      `trip p50 ${ms(percentile(detailMs, 50))} p95 ${ms(percentile(detailMs, 95))}; ` +
      `mytrips after a write p50 ${ms(percentile(missMs, 50))} p95 ${ms(percentile(missMs, 95))} ` +
      `(${describeUse(missUse)})`,
  );
  recordBudget({
    name: 'GET /api/mytrips (100 trips x 5 destinations) p95 / GET /api/trips/{id} p95',
    figure: percentile(listMs, 95),
    baseline: percentile(detailMs, 95),
    unit: 'ms',
    budget: { ratioAtMost: 3 },
    note:
      `${listMs.length} requests each, 4 connections, interleaved rounds; ` +
      `mytrips: ${describeUse(listUse)}`,
  });
  recordBudget({
    name: 'GET /api/mytrips right after a write to its owner (cache miss) p95 / GET /api/trips/{id} p95',
    figure: percentile(missMs, 95),
    baseline: percentile(detailMs, 95),
    unit: 'ms',
    budget: { none: true },
    note:
      `${missMs.length} requests, 4 connections, in the same interleaved rounds, the owner's ` +
      `list version bumped before each (outside its latency): ${describeUse(missUse)}; a miss ` +
      `includes brotli-encoding the list once (which the gateway would otherwise do per read)`,
  });
  // what the browser receives: the gateway compresses JSON answers (brotli quality 4)
  const onTheWire = brotliCompressSync(list.text, {
    params: { [zlib.BROTLI_PARAM_QUALITY]: 4 },
  }).length;
  console.log(
    `GET /api/mytrips on the wire (brotli q4, as the gateway sends it): ${onTheWire} bytes`,
  );
  recordBudget({
    name: 'GET /api/mytrips answer size (100 trips x 5 destinations), as sent (brotli q4)',
    figure: onTheWire,
    unit: 'bytes',
    budget: { figureBelow: 60_000 },
    note: `${list.bytes} bytes of JSON before compression`,
  });

  // --- 2. the list while photos are uploaded -------------------------------------------------
  const jpeg = async () => {
    const [w, h] = [2400, 1600];
    const gradient = Buffer.alloc(w * h * 3);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = (y * w + x) * 3;
        gradient[i] = (x * 255) / w;
        gradient[i + 1] = (y * 255) / h;
        gradient[i + 2] = 128;
      }
    }
    const noise = await sharp({
      create: {
        width: w,
        height: h,
        channels: 3,
        background: '#000',
        noise: { type: 'gaussian', mean: 128, sigma: 30 },
      },
    })
      .raw()
      .toBuffer();
    for (let i = 0; i < gradient.length; i++) {
      gradient[i] = Math.max(0, Math.min(255, gradient[i]! + noise[i]! - 128));
    }
    return sharp(gradient, { raw: { width: w, height: h, channels: 3 } })
      .jpeg({ quality: 90 })
      .toBuffer();
  };
  const photos = await Promise.all(Array.from({ length: PHOTOS_PER_UPLOAD }, jpeg));
  console.log(`photos: ${photos.map((p) => `${(p.length / 1e6).toFixed(2)} MB`).join(', ')}`);
  const form = (i: number) =>
    multipartBody(
      [
        ['name', `Upload ${i}`],
        ['startDate', '2025-09-01'],
        ['endDate', '2025-09-03'],
        ['destinations[0][name]', 'Bergen, Norway'],
        ['destinations[0][startDate]', '2025-09-01'],
        ['destinations[0][endDate]', '2025-09-03'],
        ['destinations[0][latitude]', '60.39'],
        ['destinations[0][longitude]', '5.32'],
        ['destinations[0][story]', 'Rain, then sun, then rain.'],
      ],
      photos.map((data, j) => ({
        field: 'photos[0]',
        data,
        filename: `p${j}.jpg`,
        type: 'image/jpeg',
      })),
    );
  const quietMs: number[] = [];
  const busyMs: number[] = [];
  const uploadMs: number[] = [];
  for (let round = 0; round < UPLOAD_ROUNDS; round++) {
    quietMs.push(...(await load('/api/mytrips', 200, 2)));
    const bodies = await Promise.all(Array.from({ length: UPLOADS }, (_, i) => form(i)));
    const uploads = Promise.all(
      bodies.map((body) =>
        call('POST', '/api/trips', uploader, body).then((r) => uploadMs.push(r.ms)),
      ),
    ).then(() => ask('idle'));
    busyMs.push(...(await loadDuring('/api/mytrips', 2, uploads)));
  }
  console.log(
    `mytrips without uploads: p50 ${ms(percentile(quietMs, 50))} p95 ${ms(percentile(quietMs, 95))}` +
      ` (${quietMs.length}); during uploads: p50 ${ms(percentile(busyMs, 50))}` +
      ` p95 ${ms(percentile(busyMs, 95))} (${busyMs.length}); upload answered in` +
      ` p50 ${ms(percentile(uploadMs, 50))}, max ${ms(Math.max(...uploadMs))}`,
  );
  recordBudget({
    name: 'GET /api/mytrips p95 during 4 concurrent 3-photo uploads / without uploads',
    figure: percentile(busyMs, 95),
    baseline: percentile(quietMs, 95),
    unit: 'ms',
    budget: { ratioAtMost: 2 },
    note:
      `${busyMs.length} / ${quietMs.length} requests, 2 connections, ${UPLOAD_ROUNDS} rounds; ` +
      'the window lasts until the uploads are answered and their display variants made',
  });
} finally {
  agent.destroy();
  await client.close();
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  await dropMongoDatabase(MONGO_DB).catch(() => undefined);
  await dropBucket(PHOTO_BUCKET).catch(() => undefined);
  await dropConsumerGroups([`${KAFKA_GROUP_PREFIX}trips-friendships`]).catch(() => undefined);
}
