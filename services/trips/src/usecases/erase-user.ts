import type { FriendshipProjection } from '@wayfarer/service-kit/mongo';
import { NotFoundError } from '../domain/errors';
import type { ImportsStore } from '../store/imports';
import type { PendingUploadsStore } from '../store/pending-uploads';
import { deleteTrip, type DeleteTripDeps } from './delete-trip';
import { discardImport, revealImport } from './import-unit';

export interface EraseUserDeps extends DeleteTripDeps {
  pending: PendingUploadsStore;
  imports: ImportsStore;
  friendships: FriendshipProjection;
}

/**
 * Erasure (auth's `user.deleted`): every trip of the user is deleted the way `DELETE
 * /api/trips/{id}` deletes one (soft-delete with its `trip.deleted`, so journal, bucketlist and
 * social erase what they derived from it after any earlier event of the trip; the relay removes
 * the document once the event is out; the photos' objects go now, or by the upload sweeper once
 * the document is gone; its share link and journal texts, kept in the trip, with it), then their
 * list version, pending upload records (the sweeper removes objects without a trip or a record),
 * import records (after their imports were finished or given up: see below) and friendships. Idempotent: a redelivered event finds
 * nothing left to do.
 */
export async function eraseUser(deps: EraseUserDeps, userId: string): Promise<number> {
  // their imports first: a committed one's trips shown, so they are erased below
  // like any trip; a running one given up (its commit then fails), its hidden trips removed
  for (const doc of await deps.imports.ofOwner(userId)) {
    if (doc.state === 'committing') await revealImport(deps, doc);
    else if (doc.state === 'running' || doc.state === 'abandoned') {
      await deps.imports.abandon({ _id: doc._id });
      await discardImport(deps, doc._id);
    }
  }
  const owned = await deps.trips.listByOwner(userId);
  for (const trip of owned) {
    try {
      await deleteTrip(deps, userId, trip._id);
    } catch (err) {
      // deleted meanwhile (by the owner's last request, or a redelivery of this event)
      if (!(err instanceof NotFoundError)) throw err;
    }
  }
  await deps.trips.versions.collection.deleteOne({ _id: userId });
  await deps.pending.collection.deleteMany({ ownerId: userId });
  // the records of their imports (their answers name their trips)
  await deps.imports.removeOwner(userId);
  await deps.friendships.forget(userId);
  return owned.length;
}
