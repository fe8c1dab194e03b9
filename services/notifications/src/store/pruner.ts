import type { Logger } from '@wayfarer/service-kit';
import type { NotificationsStore } from './notifications';

/** How often the 90-day bound is applied (reads never show older ones meanwhile). */
export const PRUNE_INTERVAL_MS = 10 * 60 * 1000;
/** Rows per statement, and statements per run: a backlog is worked off over several runs. */
const BATCH = 1000;
const ROUNDS = 10;

/**
 * Deletes notifications past the 90-day bound, at start and every `PRUNE_INTERVAL_MS` (reads
 * filter them out in between, so the bound holds for what is shown at every moment). `prune()`
 * runs one pass now (tests). A failed pass waits for the next.
 */
export function startPruner(options: {
  store: NotificationsStore;
  logger: Logger;
  now: () => Date;
  intervalMs?: number;
}): { prune(): Promise<number>; stop(): void } {
  const log = options.logger.child({ component: 'pruner' });
  let running: Promise<number> | null = null;
  const prune = (): Promise<number> => {
    running ??= (async () => {
      let total = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const removed = await options.store.pruneOld(options.now(), BATCH);
        total += removed;
        if (removed < BATCH) break;
      }
      if (total > 0) log.info({ removed: total }, 'pruned notifications past 90 days');
      return total;
    })().finally(() => {
      running = null;
    });
    return running;
  };
  const tick = () => {
    prune().catch((err: unknown) => log.warn({ err }, 'pruning notifications failed'));
  };
  const timer = setInterval(tick, options.intervalMs ?? PRUNE_INTERVAL_MS);
  timer.unref();
  tick();
  return {
    prune,
    stop: () => clearInterval(timer),
  };
}
