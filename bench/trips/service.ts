/**
 * The trips service under measurement for `trips.bench.ts`: booted by its composition root and
 * listening like `src/main.ts`, in a process of its own, so the bench's client load does not
 * share its event loop. Answers the parent over IPC: `idle` (once every display variant queued
 * so far is made), `stats` (the `GET /api/mytrips` cache's counters).
 */
import { loadConfig, serveService } from '@wayfarer/service-kit';
import { testServiceEnv } from '@wayfarer/test-kit';
import { createService, TripsEnv } from '@wayfarer/trips';

if (!process.send) throw new Error('run by trips.bench.ts (with IPC)');

const env = loadConfig(
  TripsEnv,
  testServiceEnv({
    MONGO_DB: process.env.MONGO_DB!,
    PHOTO_BUCKET: process.env.PHOTO_BUCKET!,
    PORT: process.env.PORT!,
    HOST: '127.0.0.1',
    KAFKA_GROUP_PREFIX: process.env.KAFKA_GROUP_PREFIX!,
    LOG_LEVEL: 'warn',
    OUTBOX_POLL_MS: '250',
    ...(process.env.IMAGE_CONCURRENCY ? { IMAGE_CONCURRENCY: process.env.IMAGE_CONCURRENCY } : {}),
    ...(process.env.MYTRIPS_CACHE_MAX_BYTES
      ? { MYTRIPS_CACHE_MAX_BYTES: process.env.MYTRIPS_CACHE_MAX_BYTES }
      : {}),
    // the account export's other areas (export.bench.ts: a closed port, never the dev stack's)
    ...Object.fromEntries(
      ['AUTH_URL', 'BUCKETLIST_URL', 'SOCIAL_URL', 'JOURNAL_URL', 'CHAT_URL'].flatMap((key) =>
        process.env[key] ? [[key, process.env[key]]] : [],
      ),
    ),
  }),
);
const svc = await createService(env, { skipHistory: true });
await serveService(svc, env);

process.on('message', (msg: { id: number; kind: 'idle' | 'stats' }) => {
  if (msg.kind === 'idle') void svc.variants.idle().then(() => process.send!({ id: msg.id }));
  if (msg.kind === 'stats') process.send!({ id: msg.id, stats: svc.mytrips.stats() });
});
process.send({ ready: true });
