/**
 * Importing a large archive: `POST /api/import` of a ~200 MB Polarsteps data export
 * ZIP, against the same import of an archive holding only the photos it imports (the baseline:
 * the same trips, steps and image work, without the ~180 MB the import streams to its spool
 * file and never inflates). Also the service's peak RSS growth during the large import: the
 * upload is spooled to a file and the ZIP read from there entry by entry, so RSS must not grow
 * with the archive (budget: well under the archive's size).
 *
 *   node --import tsx bench/trips/import.bench.ts
 *
 * The archive: one trip of 8 steps, 2 real 3000x2000 JPEGs (~3 MB) per step (16 photos through
 * the image pipeline), plus 56 stored 3 MB entries under the steps' `videos/` folders (what a
 * Polarsteps export holds besides photos; the import never reads them). Both archives are
 * written to a temporary file and streamed from it; ROUNDS alternate the two, each import
 * timed to its answer (the display variants made after it are waited for between rounds).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { gatewayHeaders } from '@wayfarer/test-kit';
import { zipFile } from '@wayfarer/test-kit/zip';
import { recordBudget } from '../lib/results';
import { startTripsProcess } from './process';

const ROUNDS = 3;
const STEPS = 8;
const PHOTOS_PER_STEP = 2;
const FILLER_ENTRIES = 56;
const MiB = 1024 * 1024;
const RSS_BUDGET = 100 * MiB;

const dir = await mkdtemp(join(tmpdir(), 'wayfarer-import-bench-'));
const photo = await sharp({
  create: {
    width: 3000,
    height: 2000,
    channels: 3,
    background: '#000',
    noise: { type: 'gaussian', mean: 128, sigma: 40 },
  },
})
  .jpeg({ quality: 92 })
  .toBuffer();

const tripDir = 'trip/Bench trip_1';
const stepDir = (s: number) => `${tripDir}/step-${s}_${1000 + s}`;
const tripJson = Buffer.from(
  JSON.stringify({
    name: 'Bench trip',
    start_date: 1717232400,
    end_date: 1717232400 + STEPS * 86400,
    all_steps: Array.from({ length: STEPS }, (_, s) => ({
      id: 1000 + s,
      name: `Step ${s}`,
      description: 'A day on the road.',
      start_time: 1717232400 + s * 86400,
      end_time: 1717232400 + s * 86400 + 3600,
      timezone_id: 'Europe/Oslo',
      location: { lat: 59 + s / 10, lon: 10 + s / 10, name: `Place ${s}`, country_code: 'NO' },
    })),
  }),
);
const photos = Array.from({ length: STEPS * PHOTOS_PER_STEP }, (_, i) => ({
  name: `${stepDir(i % STEPS)}/photos/p${i}.jpg`,
  data: () => photo,
  compress: false,
}));
const filler = Array.from({ length: FILLER_ENTRIES }, (_, i) => ({
  name: `${stepDir(i % STEPS)}/videos/v${i}.mp4`,
  data: () => randomBytes(3 * MiB),
  compress: false,
}));
const large = join(dir, 'large.zip');
const small = join(dir, 'small.zip');
await zipFile(large, [
  { name: `${tripDir}/trip.json`, data: () => tripJson },
  ...photos,
  ...filler,
]);
await zipFile(small, [{ name: `${tripDir}/trip.json`, data: () => tripJson }, ...photos]);
const largeBytes = (await stat(large)).size;
const smallBytes = (await stat(small)).size;

const trips = await startTripsProcess('import');
const rssOf = () => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${trips.pid}/status`, 'utf8'));
  return Number(m![1]) * 1024;
};

/** One import of `path`, streamed from disk; its time and the service's peak RSS meanwhile. */
async function importFile(
  path: string,
): Promise<{ ms: number; peakRss: number; startRss: number }> {
  const boundary = `bench${randomUUID()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="export.zip"\r\n` +
      'Content-Type: application/zip\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + (await stat(path)).size + tail.length;
  const startRss = rssOf();
  let peakRss = startRss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssOf())), 20);
  const started = performance.now();
  try {
    await new Promise<void>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: trips.port,
          method: 'POST',
          path: '/api/import',
          headers: {
            ...gatewayHeaders('POST', '/api/import', { userId: `bench-importer-${randomUUID()}` }),
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'content-length': String(length),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            res.statusCode === 201
              ? resolve()
              : reject(new Error(`${res.statusCode}: ${Buffer.concat(chunks).toString()}`)),
          );
        },
      );
      req.on('error', reject);
      req.write(head);
      const file = createReadStream(path);
      file.on('error', reject);
      file.pipe(req, { end: false });
      file.on('end', () => req.end(tail));
    });
  } finally {
    clearInterval(sampler);
  }
  const ms = performance.now() - started;
  peakRss = Math.max(peakRss, rssOf());
  // the display variants are made after the answer: let them finish before the next round
  await trips.idle();
  return { ms, peakRss, startRss };
}

try {
  await importFile(small); // warm up: sharp, the connections, the JIT
  const largeMs: number[] = [];
  const smallMs: number[] = [];
  let rssGrowth = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const l = await importFile(large);
    largeMs.push(l.ms);
    rssGrowth = Math.max(rssGrowth, l.peakRss - l.startRss);
    smallMs.push((await importFile(small)).ms);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const note = `${(largeBytes / MiB).toFixed(0)} MiB archive vs ${(smallBytes / MiB).toFixed(0)} MiB of the same 16 photos; median of ${ROUNDS}`;
  recordBudget({
    name: 'POST /api/import of a 200 MB Polarsteps ZIP / of its photos alone',
    figure: median(largeMs),
    baseline: median(smallMs),
    unit: 'ms',
    budget: { none: true },
    note,
  });
  recordBudget({
    name: 'trips peak RSS growth during a 200 MB import',
    figure: rssGrowth,
    unit: 'bytes',
    budget: { figureBelow: RSS_BUDGET },
    note: `the archive is ${(largeBytes / MiB).toFixed(0)} MiB; sampled every 20 ms`,
  });
} finally {
  await trips.stop();
  await rm(dir, { recursive: true, force: true });
}
