/**
 * The journal under measurement for `memory.ts`: booted by its composition root and listening
 * like `src/main.ts`, in a process of its own started with `--expose-gc`, so the memory read is
 * journal's alone. Answers the parent over IPC: `measure` (two full GCs, then
 * `process.memoryUsage()` and V8's heap statistics) and `snapshot` (a heap snapshot written to the given path).
 */
import { getHeapStatistics, writeHeapSnapshot } from 'node:v8';
import { loadConfig, serveService } from '@wayfarer/service-kit';
import { testServiceEnv } from '@wayfarer/test-kit';
import { createService, JournalEnv } from '@wayfarer/journal';

type Request = { id: number; kind: 'measure' } | { id: number; kind: 'snapshot'; path: string };

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc || !process.send) throw new Error('run by memory.ts (node --expose-gc, with IPC)');

const env = loadConfig(
  JournalEnv,
  testServiceEnv({
    MONGO_DB: process.env.MONGO_DB!,
    PORT: process.env.PORT!,
    HOST: '127.0.0.1',
    KAFKA_GROUP_PREFIX: process.env.KAFKA_GROUP_PREFIX!,
    // as deployed: request logs at info (to /dev/null here)
    LOG_LEVEL: 'info',
    OUTBOX_POLL_MS: '250',
  }),
);
const svc = await createService(env, { skipHistory: true });
await svc.projections.started;
await serveService(svc, env);

process.on('message', (msg: Request) => {
  if (msg.kind === 'measure') {
    gc();
    gc();
    process.send!({ id: msg.id, usage: process.memoryUsage(), v8: getHeapStatistics() });
  } else {
    writeHeapSnapshot(msg.path);
    process.send!({ id: msg.id });
  }
});
process.send({ ready: true });
