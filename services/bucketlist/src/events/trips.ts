import type { Kafka } from 'kafkajs';
import {
  readEvent,
  Topics,
  TripCreated,
  TripUpdated,
  type EventEnvelope,
} from '@wayfarer/contracts';
import {
  startConsumerInBackground,
  type BackgroundConsumer,
  type Logger,
} from '@wayfarer/service-kit';
import { processedEventsHandler, type Pool, type PoolClient } from '@wayfarer/service-kit/pg';
import type { Point } from '../domain/distance';
import { placesVisitedBy } from '../domain/visits';
import type { ItemsStore } from '../store/items';

/**
 * bucketlist's consumers: each name is its processed-event key and, behind KAFKA_GROUP_PREFIX
 * (`groupId(env, name)`), its Kafka consumer group.
 */
export const CONSUMERS = { trips: 'bucketlist-trips' } as const;

/**
 * Applies one trips event, in the transaction that records it as processed: `trip.created`
 * marks the owner's unvisited places within VISIT_RADIUS_KM of one of its destinations
 * visited by that trip (at the event's time), with one `bucketlist.item.visited` each;
 * `trip.updated` does the same for the destinations the change added or moved to another place
 * (a destination kept where it was ticked what it could when it was created). Everything else,
 * `trip.deleted` and destinations removed included, changes nothing: a place once travelled to
 * stays visited. Returns how many places it ticked off.
 */
export async function applyTripEvent(
  client: PoolClient,
  items: ItemsStore,
  event: EventEnvelope,
): Promise<number> {
  const visit = visitOf(event);
  if (!visit || visit.destinations.length === 0) return 0;
  const { tripId, ownerId, name, destinations } = visit;
  const ids = placesVisitedBy(await items.unvisited(client, ownerId), destinations);
  const visited = await items.visitByTrip(
    client,
    ownerId,
    ids,
    { tripId, name },
    new Date(event.occurredAt),
  );
  return visited.length;
}

/** The trip and the destinations of an event that may tick places off, or null. */
function visitOf(event: EventEnvelope): {
  tripId: string;
  ownerId: string;
  name: string;
  destinations: Point[];
} | null {
  const created = readEvent(TripCreated, event);
  if (created) return created.payload;
  const updated = readEvent(TripUpdated, event);
  if (!updated) return null;
  const placed = new Set([
    ...updated.payload.addedDestinationIds,
    ...updated.payload.movedDestinationIds,
  ]);
  return {
    ...updated.payload,
    destinations: updated.payload.destinations.filter((d) => placed.has(d.id)),
  };
}

export interface TripConsumerOptions {
  kafka: Kafka;
  pool: Pool;
  items: ItemsStore;
  logger: Logger;
  /** `groupId(env, CONSUMERS.trips)` */
  groupId: string;
  /** Called after an event ticked places off (the relay's kick: their events go at once). */
  onVisited?: () => void;
  /** Tests only: a new group starts at the topic's end as of now (service-kit). */
  skipHistory?: boolean;
  maxRetryDelayMs?: number;
}

/**
 * The trips consumer: each event applied once (service-kit's PostgreSQL idempotent handler, its
 * marker in the same transaction as the change), joined in the background so HTTP is served
 * while Kafka is away. A payload failing its schema is logged and skipped (service-kit).
 */
export function startTripConsumer(options: TripConsumerOptions): BackgroundConsumer {
  const { pool, items, logger } = options;
  return startConsumerInBackground({
    kafka: options.kafka,
    logger,
    groupId: options.groupId,
    topics: [Topics.tripsTrip],
    skipHistory: options.skipHistory,
    maxRetryDelayMs: options.maxRetryDelayMs,
    handle: async (event) => {
      let ticked = 0;
      const apply = processedEventsHandler(pool, CONSUMERS.trips, async (client, e) => {
        ticked = await applyTripEvent(client, items, e);
      });
      if ((await apply(event)) && ticked > 0) {
        logger.info({ eventId: event.id, places: ticked }, 'places visited by a trip');
        options.onVisited?.();
      }
    },
  });
}
