import { Topics, type Topic } from '@wayfarer/contracts';
import { outboxEntry, type OutboxEntry } from '@wayfarer/service-kit/mongo';
import { tripCreatedEvent, tripDeletedEvent } from '../domain/events';
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
