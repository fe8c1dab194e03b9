import { startPeriodic, type Logger, type Periodic } from '@wayfarer/service-kit';
import type { NotificationsDeps } from '../usecases/deps';
import { pruneOld } from '../usecases/prune-old';

/** How often the 90-day bound is applied (reads never show older ones meanwhile). */
export const PRUNE_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Deletes notifications past the 90-day bound, at start and every `PRUNE_INTERVAL_MS` (reads
 * filter them out in between, so the bound holds for what is shown at every moment).
 * `runNow()` runs one pass now (tests); a failed pass is logged and waits for the next.
 */
export function startPruneJob(
  deps: NotificationsDeps,
  logger: Logger,
  intervalMs: number = PRUNE_INTERVAL_MS,
): Periodic<number> {
  return startPeriodic(
    {
      name: 'notifications-prune',
      intervalMs,
      run: async () => {
        const removed = await pruneOld(deps);
        if (removed > 0) logger.info({ removed }, 'pruned notifications past 90 days');
        return removed;
      },
    },
    logger,
  );
}
