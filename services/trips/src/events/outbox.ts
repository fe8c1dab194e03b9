import { Topics, type Topic } from '@wayfarer/contracts';
import { outboxEntry, type OutboxEntry } from '@wayfarer/service-kit/mongo';
import type { TripChange } from '../domain/edit';
import { tripCreatedEvent, tripDeletedEvent, tripUpdatedEvent } from '../domain/events';
import type { TripDoc } from '../domain/trip';

/** Topics trips publishes (service-kit's `startMongoOutboxRelay` creates them). */
export const PUBLISHED_TOPICS: readonly Topic[] = [Topics.tripsTrip];

/** The outbox entry of `trip.created`, stored in the document's insert. */
export function tripCreatedEntry(trip: TripDoc, now?: Date): OutboxEntry {
  return outboxEntry(Topics.tripsTrip, tripCreatedEvent(trip, now));
}

/** The outbox entry of `trip.deleted`, pushed in the soft-delete update. */
export function tripDeletedEntry(trip: TripDoc, now?: Date): OutboxEntry {
  return outboxEntry(Topics.tripsTrip, tripDeletedEvent(trip, now));
}

/** The outbox entry of `trip.updated`, pushed in the change's update. */
export function tripUpdatedEntry(change: TripChange, now?: Date): OutboxEntry {
  return outboxEntry(Topics.tripsTrip, tripUpdatedEvent(change, now));
}
