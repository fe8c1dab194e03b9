import { readEvent, TripCreated, TripUpdated, type EventEnvelope } from '@wayfarer/contracts';
import type { PoolClient } from '@wayfarer/service-kit/pg';
import type { Point } from '../domain/distance';
import { placesVisitedBy } from '../domain/visits';
import { enqueueItemVisited } from '../events/outbox';
import type { ItemsStore } from '../store/items';

/**
 * A trip event ticks places off, in the transaction that records it as processed:
 * `trip.created` marks the owner's unvisited places within VISIT_RADIUS_KM of one of its
 * destinations visited by that trip (at the event's time), with one `bucketlist.item.visited`
 * each; `trip.updated` does the same for the destinations the change added or moved to another
 * place (a destination kept where it was ticked what it could when it was created). Everything
 * else, `trip.deleted` and destinations removed included, changes nothing: a place once
 * travelled to stays visited. Returns how many places it ticked off.
 */
export async function tickVisitedPlaces(
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
  for (const item of visited) await enqueueItemVisited(client, ownerId, item);
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
