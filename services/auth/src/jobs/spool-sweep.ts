import { startPeriodic, type Logger, type Periodic } from '@wayfarer/service-kit';
import type { SpoolArea, SpoolSweep } from '@wayfarer/storage';

/**
 * How often the spool is swept of what dead instances left; and how long another instance's
 * directory may stay untouched before it counts as dead (a live instance touches its own at
 * every sweep). On this host a dead instance's directory goes at once, by its pid.
 */
export const SPOOL_SWEEP_MS = 10 * 60_000;
export const SPOOL_STALE_MS = 6 * SPOOL_SWEEP_MS;

/**
 * Sweeps the upload spool of what killed instances left: once before the service answers
 * (awaited; a failure is only logged) and every SPOOL_SWEEP_MS. Stop it before the spool is
 * closed: `stop()` waits for a sweep under way.
 */
export async function startSpoolSweep(
  spool: SpoolArea,
  logger: Logger,
): Promise<Periodic<SpoolSweep>> {
  const job = startPeriodic(
    {
      name: 'spool-sweep',
      intervalMs: SPOOL_SWEEP_MS,
      runAtStart: false,
      run: () => spool.sweep(),
    },
    logger,
  );
  await job.runNow().catch((err: unknown) => {
    logger.warn({ err }, 'could not sweep the upload spool; trying later');
  });
  return job;
}
