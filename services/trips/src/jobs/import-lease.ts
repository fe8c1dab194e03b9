import { startPeriodic, type Logger } from '@wayfarer/service-kit';
import type { ImportDoc, ImportsStore } from '../store/imports';

/** A running import's hold on its lease: `lost` once a renewal found it no longer held. */
export interface ImportLease {
  lost(): boolean;
  stop(): void;
}

/**
 * Renews the import's lease every third of it while it runs (a periodic job: the import's own
 * steps can take long, one photo queued behind others' image work); `lost()` is true once a
 * renewal found the import no longer held (a retry or the sweeper judged it dead: it must
 * stop). A renewal that fails is logged and tried again at the next interval.
 */
export function holdImportLease(
  deps: { imports: ImportsStore; importLeaseMs: number; logger: Logger },
  doc: Pick<ImportDoc, '_id' | 'holder'>,
): ImportLease {
  let lost = false;
  const job = startPeriodic(
    {
      name: 'import-lease',
      intervalMs: Math.max(100, deps.importLeaseMs / 3),
      runAtStart: false,
      run: async () => {
        try {
          const held = await deps.imports.renew(
            doc._id,
            doc.holder,
            new Date(Date.now() + deps.importLeaseMs),
          );
          if (!held) lost = true;
        } catch (err) {
          deps.logger.warn({ err, importId: doc._id }, 'could not renew an import lease');
        }
      },
    },
    deps.logger,
  );
  return { lost: () => lost, stop: () => void job.stop() };
}
