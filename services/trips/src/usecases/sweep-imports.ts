import { IMPORT_RECORD_RETENTION_MS } from '../store/imports';
import { discardImport, revealImport, type ImportUnitDeps } from './import-unit';

/** Most imports one run finishes or removes (the next run goes on). */
const IMPORTS_PER_RUN = 50;

export interface ImportSweep {
  /** Committed imports whose trips it showed (their process died while showing them). */
  revealed: number;
  /** Imports given up (lease run out, or abandoned) whose leftovers it removed. */
  discarded: number;
  /** Hidden trips removed with their photos. */
  trips: number;
  /** Finished records pruned (past their key's 24 h). */
  pruned: number;
}

/**
 * What an interrupted import leaves, finished or removed; the service runs it on
 * start and every half import lease (`IMPORT_LEASE_MS`), each run bounded:
 * - a `committing` import whose lease ran out: its process died while showing its trips; they
 *   are shown (idempotent) and it is `done`;
 * - a `running` import whose lease ran out: its process died (or hung past its lease) before
 *   the commit; it is abandoned only if its lease is still the one seen (a live import renews
 *   long before), then its hidden trips and their photos are removed and it is `failed`;
 * - an `abandoned` import (its request, a retry or the erasure gave it up and could not finish
 *   removing): the same removal;
 * then finished records older than their key's 24 h are pruned. Photos of a trip whose upload
 * was cut before its insert are its pending upload's: the upload sweeper removes them.
 */
export function createImportSweeper(deps: ImportUnitDeps) {
  return {
    async run(now: Date = new Date()): Promise<ImportSweep> {
      const result: ImportSweep = { revealed: 0, discarded: 0, trips: 0, pruned: 0 };
      for (const doc of await deps.imports.stale(now, IMPORTS_PER_RUN)) {
        if (doc.state === 'committing') {
          await revealImport(deps, doc);
          result.revealed++;
          continue;
        }
        if (doc.state === 'running' && !(await deps.imports.abandon(doc))) continue;
        result.trips += await discardImport(deps, doc._id);
        await deps.imports.markFailed(doc._id);
        result.discarded++;
      }
      result.pruned = await deps.imports.prune(
        new Date(now.getTime() - IMPORT_RECORD_RETENTION_MS),
      );
      if (result.revealed + result.discarded > 0) {
        deps.logger.info(result, 'finished or removed what interrupted imports left');
      }
      return result;
    },
  };
}

export type ImportSweeper = ReturnType<typeof createImportSweeper>;
