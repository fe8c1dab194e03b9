import type { Logger, OutboxRelay } from '@wayfarer/service-kit';
import type { ObjectStore } from '@wayfarer/storage';
import { checkVersion, type ExpectedVersion, type TripChange } from '../domain/edit';
import { UnavailableError } from '../domain/errors';
import { Messages } from '../domain/limits';
import { photoPrefix, type TripDoc } from '../domain/trip';
import { tripUpdatedEntry } from '../events/outbox';
import { readOwned } from './read-trip';
import type { TripRead, TripsStore } from '../store/trips';

export interface ChangeTripDeps {
  trips: TripsStore;
  photos: ObjectStore;
  relay?: Pick<OutboxRelay, 'kick'>;
  logger: Logger;
  now: () => Date;
}

/** How many times a change reads the trip again when a display variant landed in between. */
const CHANGE_ATTEMPTS = 5;

/** What a change did: the trip after it, and the change (null when there was nothing to do). */
export interface Changed {
  trip: TripDoc;
  change: TripChange | null;
}

/**
 * One change to the owner's trip, the way every change goes (an edit, photos added, a photo
 * removed): read the trip (someone else's, unknown, deleted: NotFoundError), check it is at a
 * version the client named (`If-Match`: else StaleTripError, nothing changes), compute the
 * change (pure: `compute` throws what it refuses), then write it with its `trip.updated` in one
 * update over exactly the state it was computed from (`TripsStore.applyChange`). When that
 * state moved only by a display variant being recorded, it reads and computes again; when the
 * version moved (another change won), the next read's check answers StaleTripError. Once
 * written, the relay is kicked and the objects of the photos the change took away are removed
 * (`removeTrashedPhotos`).
 *
 * The read is skipped when this instance's last change of the trip left it at the version the
 * client names (`TripsStore.writtenHere`): the edit screen sends each change with the ETag of
 * the previous answer. The conditional update is the check either way: a kept copy out of date
 * writes nothing, and the change reads the trip as above.
 */
export async function changeTrip(
  deps: ChangeTripDeps,
  ownerId: string,
  tripId: string,
  expected: ExpectedVersion,
  compute: (trip: TripRead) => TripChange | null,
): Promise<Changed> {
  /** Writes `change` over `trip` (false: the trip was not in that state any more). */
  const written = async (trip: TripRead, change: TripChange): Promise<boolean> => {
    const events = [tripUpdatedEntry(change, deps.now())];
    if (!(await deps.trips.applyChange(trip, change, events))) return false;
    deps.relay?.kick();
    await removeTrashedPhotos(deps, tripId, change.removedPhotoIds);
    return true;
  };
  for (let attempt = 0; attempt < CHANGE_ATTEMPTS; attempt++) {
    // the first attempt starts from the trip as this instance's last change left it when the
    // client names that version (a series of edits reads the trip once); what would be
    // answered without a write (a refusal, nothing to change) is answered from a read
    const kept =
      attempt === 0 && expected !== 'any'
        ? deps.trips.writtenHere(tripId, ownerId, expected)
        : undefined;
    if (kept) {
      const change = computedOrNull(compute, kept);
      if (change && (await written(kept, change))) return { trip: change.trip, change };
      continue;
    }
    const trip = await readOwned(deps, ownerId, tripId);
    checkVersion(trip, expected);
    const change = compute(trip);
    if (!change) return { trip, change: null };
    if (await written(trip, change)) return { trip: change.trip, change };
  }
  throw new UnavailableError(Messages.busy);
}

/** `compute(trip)`, or null when it refuses or changes nothing. */
function computedOrNull(
  compute: (trip: TripRead) => TripChange | null,
  trip: TripRead,
): TripChange | null {
  try {
    return compute(trip);
  } catch {
    return null;
  }
}

/**
 * Removes the objects of photos a change took away (every variant, under the photo's prefix),
 * then takes them off the trip's `trashedPhotos`. A failure is logged: what is left in the
 * trash is removed by the janitor's next run (`resumeTrash`).
 */
export async function removeTrashedPhotos(
  deps: Pick<ChangeTripDeps, 'trips' | 'photos' | 'logger'>,
  tripId: string,
  photoIds: readonly string[],
): Promise<void> {
  if (photoIds.length === 0) return;
  try {
    for (const photoId of photoIds) await deps.photos.removePrefix(photoPrefix(tripId, photoId));
    await deps.trips.trash.takeOut(tripId, photoIds);
  } catch (err) {
    deps.logger.error(
      { err, tripId },
      'removed photos not all removed from storage; retried later',
    );
  }
}

/** Most trips one janitor run takes the trash out of. */
const TRASH_PER_RUN = 100;

/** The janitor's task: the objects of removed photos a failure or a crash left behind. */
export async function resumeTrash(
  deps: Pick<ChangeTripDeps, 'trips' | 'photos' | 'logger'>,
): Promise<number> {
  const trips = await deps.trips.trash.list(TRASH_PER_RUN);
  for (const trip of trips) await removeTrashedPhotos(deps, trip._id, trip.trashedPhotos ?? []);
  return trips.length;
}
