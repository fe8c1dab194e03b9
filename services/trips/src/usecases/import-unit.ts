import type { Logger, OutboxRelay } from '@wayfarer/service-kit';
import type { ObjectStore } from '@wayfarer/storage';
import { tripPrefix, type TripDoc } from '../domain/trip';
import type { ImportDoc, ImportsStore } from '../store/imports';
import type { TripsStore } from '../store/trips';

/*
 * The two ways an import ends (all of its trips or none), shared by the request
 * running it (`import-job.ts`), a retry of its key, the sweeper (`sweep-imports.ts`) and the
 * erasure: shown whole, or removed whole.
 */

export interface ImportUnitDeps {
  trips: TripsStore;
  imports: ImportsStore;
  photos: ObjectStore;
  logger: Logger;
  relay?: Pick<OutboxRelay, 'kick'>;
  /** Queues the display variants of the trips shown (absent: the janitor's resume makes them). */
  variants?: { enqueue(trip: Pick<TripDoc, '_id' | 'pendingVariants'>): void };
}

/**
 * Shows a committed import (`committing`): its hidden trips get their owner, their
 * `trip.created` and their photos' variants at once (`HiddenTripsStore.reveal`: one update of
 * them all), then the record is `done`. Idempotent (a retry or the sweeper finishing what a dead
 * process began).
 */
export async function revealImport(
  deps: ImportUnitDeps,
  doc: Pick<ImportDoc, '_id' | 'ownerId'>,
): Promise<void> {
  const held = await deps.trips.hidden.list(doc._id);
  await deps.trips.hidden.reveal(doc._id, doc.ownerId);
  await deps.imports.markDone(doc._id);
  deps.relay?.kick();
  for (const trip of held) {
    deps.variants?.enqueue({ _id: trip._id, pendingVariants: trip.heldVariants });
  }
}

/**
 * Removes what an import that will not commit wrote: each hidden trip's objects (every photo of
 * it lives under its prefix), then the trip. Never shown, never announced: nothing else knows
 * of them. Objects of a trip whose insert had not happened yet are its pending upload's, which
 * the upload's own failure path or the upload sweeper removes. Idempotent; returns how many
 * trips went.
 */
export async function discardImport(
  deps: Pick<ImportUnitDeps, 'trips' | 'photos'>,
  importId: string,
): Promise<number> {
  const hidden = await deps.trips.hidden.list(importId);
  for (const { _id: tripId } of hidden) {
    await deps.photos.removePrefix(tripPrefix(tripId));
    await deps.trips.hidden.remove(importId, tripId);
  }
  return hidden.length;
}

/**
 * An import that failed (or was judged dead) given up: abandoned (its key freed, when it still
 * ran), its leftovers removed, its record `failed`. `holder`: only while that attempt holds it
 * (its own failure); without, whatever holds it (the erasure). Failures are left to the sweeper.
 */
export async function abandonImport(
  deps: Pick<ImportUnitDeps, 'trips' | 'imports' | 'photos' | 'logger'>,
  doc: Pick<ImportDoc, '_id'> & { holder?: string },
): Promise<void> {
  try {
    await deps.imports.abandon(doc);
    await discardImport(deps, doc._id);
    await deps.imports.markFailed(doc._id);
  } catch (err) {
    deps.logger.error(
      { err, importId: doc._id },
      'could not remove what a failed import wrote; the import sweeper will',
    );
  }
}
