import {
  TripEditMessages,
  TripInput,
  TripLimits,
  type TripPatch,
  type TripPatchDestination,
} from '@wayfarer/contracts';
import { InvalidTripError, NotFoundError, StaleTripError } from './errors';
import { Messages } from './limits';
import { destinationDoc, type DestinationDoc, type PhotoDoc, type TripDoc } from './trip';

/*
 * Changes to a saved trip, as pure functions from the trip as read to the trip after
 * the change: an edit (`PATCH /api/trips/{id}`), photos added to a destination, a photo
 * removed. Each answers a `TripChange` (the next trip, one version on, and what happened to its
 * destinations and photos) or throws a domain error; the use cases write it in one conditional
 * update with its `trip.updated` event.
 */

/** One change: the trip after it, and what it did to destinations and photos. */
export interface TripChange {
  /** The trip after the change: `version` one more than the trip it was made to. */
  trip: TripDoc;
  /** Destinations new in this change. */
  addedDestinationIds: string[];
  /** Kept destinations whose coordinates changed. */
  movedDestinationIds: string[];
  /** Destinations taken away (with their photos). */
  removedDestinationIds: string[];
  /** Photos taken away (theirs, and those of removed destinations): their objects go. */
  removedPhotoIds: string[];
}

/** What an `If-Match` named: any version (`*`), or the versions listed. */
export type ExpectedVersion = 'any' | readonly number[];

/** A change is made to the version the client saw: else StaleTripError (nothing changes). */
export function checkVersion(trip: Pick<TripDoc, 'version'>, expected: ExpectedVersion): void {
  if (expected === 'any' || expected.includes(trip.version)) return;
  throw new StaleTripError(trip.version);
}

const blank = (value: string | undefined): boolean => value === undefined || value.trim() === '';

/**
 * Applies a validated `TripPatch` to `trip`: the trip's fields sent (`visibility` among them)
 * replace theirs, and
 * `destinations`, when sent, is the whole new list in order. A kept destination names its
 * `_id` (its fields left out keep their value, its photos stay); a new one has no `_id` and
 * needs `name`, `latitude` and `longitude` (`newId` names it); a destination's blank or missing
 * date is the trip's, as at creation. The merged trip is checked by the creation's rules
 * (contracts' `TripInput`: a ZodError naming `destinations.<i>.<field>` of the new list).
 * Refused (InvalidTripError): an `_id` this trip does not have, or listed twice, a new
 * destination without its required fields. Null when the patch changes nothing.
 */
export function applyTripPatch(
  trip: TripDoc,
  patch: TripPatch,
  newId: () => string,
): TripChange | null {
  const byId = new Map(trip.destinations.map((d) => [d._id, d]));
  const listed: TripPatchDestination[] =
    patch.destinations ?? trip.destinations.map((d) => ({ _id: d._id }));
  const problems: string[] = [];
  const seen = new Set<string>();
  listed.forEach((d, i) => {
    if (d._id === undefined) {
      for (const field of ['name', 'latitude', 'longitude'] as const) {
        if (d[field] === undefined) problems.push(TripEditMessages.required(i, field));
      }
    } else if (!byId.has(d._id)) {
      problems.push(TripEditMessages.unknownDestination(i));
    } else if (seen.has(d._id)) {
      problems.push(TripEditMessages.repeatedDestination(i));
    } else {
      seen.add(d._id);
    }
  });
  if (problems.length > 0) throw new InvalidTripError(problems.join(' '));

  const startDate = patch.startDate ?? trip.startDate;
  const endDate = patch.endDate ?? trip.endDate;
  const merged = listed.map((d) => mergeDestination(d, byId, { startDate, endDate }));
  // the creation's rules, on the whole trip as it would be (ZodError on the first breach)
  const input = TripInput.parse({
    name: patch.name ?? trip.name,
    startDate,
    endDate,
    destinations: merged,
  });

  const destinations = input.destinations.map((d, i) => {
    const kept = listed[i]!._id;
    return kept === undefined
      ? destinationDoc(newId(), d, [])
      : destinationDoc(kept, d, byId.get(kept)!.photos);
  });
  const next: TripDoc = {
    ...trip,
    name: input.name,
    startDate: input.startDate,
    endDate: input.endDate,
    destinations,
    visibility: patch.visibility ?? trip.visibility,
  };
  if (sameContent(trip, next)) return null;

  const keptIds = new Set(listed.flatMap((d) => (d._id === undefined ? [] : [d._id])));
  const removed = trip.destinations.filter((d) => !keptIds.has(d._id));
  return change(trip, next, {
    addedDestinationIds: destinations
      .filter((d, i) => listed[i]!._id === undefined)
      .map((d) => d._id),
    movedDestinationIds: destinations
      .filter((d) => {
        const before = keptIds.has(d._id) ? byId.get(d._id)! : null;
        return (
          before !== null && (before.latitude !== d.latitude || before.longitude !== d.longitude)
        );
      })
      .map((d) => d._id),
    removedDestinationIds: removed.map((d) => d._id),
    removedPhotoIds: removed.flatMap((d) => d.photos.map((p) => p.id)),
  });
}

/** A destination of the new list as `TripInput` reads it: kept fields under the patch's. */
function mergeDestination(
  d: TripPatchDestination,
  byId: ReadonlyMap<string, DestinationDoc>,
  trip: { startDate: string; endDate: string },
) {
  const before = d._id === undefined ? undefined : byId.get(d._id);
  const date = (sent: string | undefined, kept: string | undefined, tripDate: string) => {
    const value = sent ?? kept;
    return blank(value) ? tripDate : value;
  };
  return {
    name: d.name ?? before?.name,
    latitude: d.latitude ?? before?.latitude,
    longitude: d.longitude ?? before?.longitude,
    startDate: date(d.startDate, before?.startDate, trip.startDate),
    endDate: date(d.endDate, before?.endDate, trip.endDate),
    story: d.story ?? before?.story ?? '',
  };
}

/**
 * Whether two states of a trip answer the same (fields, visibility, destinations in order,
 * photos).
 */
function sameContent(a: TripDoc, b: TripDoc): boolean {
  const fields = (t: TripDoc) =>
    JSON.stringify([
      t.visibility,
      t.name,
      t.startDate,
      t.endDate,
      t.destinations.map((d) => [
        d._id,
        d.name,
        d.latitude,
        d.longitude,
        d.startDate,
        d.endDate,
        d.story,
        d.photos.map((p) => p.id),
      ]),
    ]);
  return fields(a) === fields(b);
}

/**
 * The change from `trip` to `next`: one version on; the pending display variants of removed
 * photos dropped, those of `newPending` photos added.
 */
function change(
  trip: TripDoc,
  next: TripDoc,
  what: Omit<TripChange, 'trip'>,
  newPending: readonly string[] = [],
): TripChange {
  const gone = new Set(what.removedPhotoIds);
  const pending = [...(trip.pendingVariants ?? []).filter((id) => !gone.has(id)), ...newPending];
  const { pendingVariants: _pending, ...rest } = next;
  return {
    trip: {
      ...rest,
      version: trip.version + 1,
      ...(pending.length > 0 ? { pendingVariants: pending } : {}),
    },
    ...what,
  };
}

/** The trip's destination of that id; NotFoundError when it has none. */
export function destinationOf(trip: TripDoc, destinationId: string): DestinationDoc {
  const destination = trip.destinations.find((d) => d._id === destinationId);
  if (!destination) throw new NotFoundError('destination');
  return destination;
}

/**
 * Why `adding` more photos do not fit the destination (the per-destination or per-trip limit of
 * `TripLimits` they break), or null when they do. NotFoundError for a destination the trip does
 * not have.
 */
export function photoLimitProblem(
  trip: TripDoc,
  destinationId: string,
  adding: number,
): string | null {
  const destination = destinationOf(trip, destinationId);
  if (destination.photos.length + adding > TripLimits.photosPerDestinationMax) {
    return Messages.tooManyPhotosPerDestination;
  }
  const inTrip = trip.destinations.reduce((sum, d) => sum + d.photos.length, 0);
  if (inTrip + adding > TripLimits.photosPerTripMax) return Messages.tooManyPhotosPerTrip;
  return null;
}

/**
 * Adds stored photos (their display variants still to be made) at the end of a destination's
 * photos. NotFoundError for a destination the trip does not have; InvalidTripError past the
 * per-destination or per-trip photo limit; InvalidTripError for no photo at all.
 */
export function addPhotos(trip: TripDoc, destinationId: string, photos: PhotoDoc[]): TripChange {
  if (photos.length === 0) throw new InvalidTripError(TripEditMessages.noPhotos);
  const problem = photoLimitProblem(trip, destinationId, photos.length);
  if (problem) throw new InvalidTripError(problem);
  const next: TripDoc = {
    ...trip,
    destinations: trip.destinations.map((d) =>
      d._id === destinationId ? { ...d, photos: [...d.photos, ...photos] } : d,
    ),
  };
  const pending = photos.filter((p) => p.display === null).map((p) => p.id);
  return change(trip, next, noDestinationChange(), pending);
}

/**
 * Takes one photo off its destination. NotFoundError for a destination the trip does not have,
 * or a photo that destination does not have.
 */
export function removePhoto(trip: TripDoc, destinationId: string, photoId: string): TripChange {
  const destination = destinationOf(trip, destinationId);
  if (!destination.photos.some((p) => p.id === photoId)) throw new NotFoundError('photo');
  const next: TripDoc = {
    ...trip,
    destinations: trip.destinations.map((d) =>
      d._id === destinationId ? { ...d, photos: d.photos.filter((p) => p.id !== photoId) } : d,
    ),
  };
  return change(trip, next, { ...noDestinationChange(), removedPhotoIds: [photoId] });
}

const noDestinationChange = (): Omit<TripChange, 'trip'> => ({
  addedDestinationIds: [],
  movedDestinationIds: [],
  removedDestinationIds: [],
  removedPhotoIds: [],
});
