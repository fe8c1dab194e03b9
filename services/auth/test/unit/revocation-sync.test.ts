import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { createLogger } from '@wayfarer/service-kit';
import { startRevocationSync } from '../../src/jobs/revocation-sync';
import type { RevocationStore } from '../../src/store/revocations';

const logger = createLogger('revocation-sync-test', 'silent');

/** A Redis client as the job sees it: its status and its `ready` events. */
function fakeRedis(status: string) {
  return Object.assign(new EventEmitter(), { status }) as unknown as Redis & EventEmitter;
}

/** A store recording each sync's `all`; `hold` keeps the next sync pending until released. */
function fakeStore() {
  const calls: boolean[] = [];
  let release: (() => void) | null = null;
  const store = {
    hold: false,
    async sync({ all }: { all: boolean }) {
      calls.push(all);
      if (store.hold) {
        store.hold = false;
        await new Promise<void>((resolve) => (release = resolve));
      }
      return 0;
    },
  };
  return { store, calls, release: () => release?.() };
}

const ticks = (n: number) => new Promise((resolve) => setTimeout(resolve, n));

describe('the revocation sync job', () => {
  it('syncs everything when Redis is ready at start, then only what Redis may lack', async () => {
    const { store, calls } = fakeStore();
    const job = startRevocationSync({
      store: store as unknown as RevocationStore,
      redis: fakeRedis('ready'),
      logger,
      intervalMs: 20,
    });
    await ticks(70);
    await job.stop();
    expect(calls[0]).toBe(true);
    expect(calls.length).toBeGreaterThan(1);
    expect(calls.slice(1).every((all) => !all)).toBe(true);
  });

  it('a (re)connect during a partial pass gets its full sync right after it', async () => {
    const { store, calls, release } = fakeStore();
    const redis = fakeRedis('connecting');
    const job = startRevocationSync({
      store: store as unknown as RevocationStore,
      redis,
      logger,
      intervalMs: 60_000,
    });
    // not ready at start: the first pass is the one asked for; it is full (nothing synced yet)
    await job.runNow();
    expect(calls).toEqual([true]);
    store.hold = true;
    const partial = job.runNow();
    redis.emit('ready');
    release();
    await partial;
    await ticks(10);
    await job.stop();
    expect(calls).toEqual([true, false, true]);
  });

  it('stops listening for reconnects once stopped', async () => {
    const { store, calls } = fakeStore();
    const redis = fakeRedis('connecting');
    const job = startRevocationSync({
      store: store as unknown as RevocationStore,
      redis,
      logger,
      intervalMs: 60_000,
    });
    await job.stop();
    redis.emit('ready');
    await ticks(10);
    expect(calls).toEqual([]);
    expect(redis.listenerCount('ready')).toBe(0);
  });
});
