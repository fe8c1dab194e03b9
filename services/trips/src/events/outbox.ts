import type { Kafka } from 'kafkajs';
import { Topics, type Topic } from '@wayfarer/contracts';
import type { Logger, OutboxRelay } from '@wayfarer/service-kit';
import { outboxEntry, startMongoOutboxRelay, type OutboxEntry } from '@wayfarer/service-kit/mongo';
import { tripCreatedEvent, tripDeletedEvent } from '../domain/events';
import type { TripDoc } from '../domain/trip';
import type { TripsRepo } from '../store/trips';

/** Topics trips publishes (created by the outbox relay on first connect). */
export const PUBLISHED_TOPICS: readonly Topic[] = [Topics.tripsTrip];

/** The outbox entry of `trip.created`, stored in the document's insert. */
export function tripCreatedEntry(trip: TripDoc, now?: Date): OutboxEntry {
  return outboxEntry(Topics.tripsTrip, tripCreatedEvent(trip, now));
}

/** The outbox entry of `trip.deleted`, pushed in the soft-delete update. */
export function tripDeletedEntry(trip: TripDoc, now?: Date): OutboxEntry {
  return outboxEntry(Topics.tripsTrip, tripDeletedEvent(trip, now));
}

/** Relays the trips collection's outbox to Kafka (and removes soft-deleted trips once out). */
export function startTripsRelay(options: {
  trips: TripsRepo;
  kafka: Kafka;
  logger: Logger;
  pollIntervalMs?: number;
}): OutboxRelay {
  return startMongoOutboxRelay({
    collections: [options.trips.collection],
    kafka: options.kafka,
    logger: options.logger,
    topics: PUBLISHED_TOPICS,
    pollIntervalMs: options.pollIntervalMs,
  });
}
