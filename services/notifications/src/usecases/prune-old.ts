import type { NotificationsDeps } from './deps';

/** Rows per statement, and statements per pass: a backlog is worked off over several passes. */
const BATCH = 1000;
const ROUNDS = 10;

/**
 * The 90-day bound: deletes notifications older than it, in batches; returns how many. Reads
 * filter them out in between, so the bound holds for what is shown at every moment.
 */
export async function pruneOld(deps: NotificationsDeps): Promise<number> {
  let total = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const removed = await deps.stores.notifications.pruneOld(deps.now(), BATCH);
    total += removed;
    if (removed < BATCH) break;
  }
  return total;
}
