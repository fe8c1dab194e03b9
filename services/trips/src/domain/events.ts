import {
  makeEvent,
  storyPreview,
  TripCreated,
  TripDeleted,
  TripUpdated,
} from '@wayfarer/contracts';
import type { TripChange } from './edit';
import { photoUrl, type TripDoc } from './trip';

/** What other services learn about each destination (the same in created, updated, deleted). */
export function destinationSummaries(trip: Pick<TripDoc, '_id' | 'destinations'>) {
  return trip.destinations.map((d) => ({
    id: d._id,
    name: d.name,
    latitude: d.latitude,
    longitude: d.longitude,
    startDate: d.startDate,
    endDate: d.endDate,
    photos: d.photos.map((p) => photoUrl(trip._id, p.id)),
    storyPreview: storyPreview(d.story),
  }));
}

/** `trip.created`, keyed by the trip id. */
export function tripCreatedEvent(trip: TripDoc, now: Date = new Date()) {
  return makeEvent(
    TripCreated,
    trip._id,
    {
      tripId: trip._id,
      ownerId: trip.ownerId,
      name: trip.name,
      startDate: trip.startDate,
      endDate: trip.endDate,
      destinations: destinationSummaries(trip),
      visibility: trip.visibility,
    },
    now,
  );
}

/** `trip.deleted`, keyed by the trip id, with the destinations it took away. */
export function tripDeletedEvent(trip: TripDoc, now: Date = new Date()) {
  return makeEvent(
    TripDeleted,
    trip._id,
    { tripId: trip._id, ownerId: trip.ownerId, destinations: destinationSummaries(trip) },
    now,
  );
}

/**
 * `trip.updated`, keyed by the trip id: the trip after the change, whole (its destinations in
 * order), what the change did to its destinations, and its new version.
 */
export function tripUpdatedEvent(change: TripChange, now: Date = new Date()) {
  const { trip } = change;
  return makeEvent(
    TripUpdated,
    trip._id,
    {
      tripId: trip._id,
      ownerId: trip.ownerId,
      version: trip.version,
      name: trip.name,
      startDate: trip.startDate,
      endDate: trip.endDate,
      destinations: destinationSummaries(trip),
      addedDestinationIds: change.addedDestinationIds,
      movedDestinationIds: change.movedDestinationIds,
      removedDestinationIds: change.removedDestinationIds,
      visibility: trip.visibility,
    },
    now,
  );
}
