import {
  BucketListItemAdded,
  BucketListItemVisited,
  BucketListItinerarySaved,
  makeEvent,
  Topics,
  type BucketListItem,
  type Topic,
} from '@wayfarer/contracts';
import { enqueueEvent, type PoolClient } from '@wayfarer/service-kit/pg';

/** Topics bucketlist publishes (created by the outbox relay on first connect). */
export const PUBLISHED_TOPICS: readonly Topic[] = [Topics.bucketlistItem];

/** Records `bucketlist.item.added` in the caller's transaction (the one that inserts it). */
export async function enqueueItemAdded(
  client: PoolClient,
  ownerId: string,
  item: BucketListItem,
): Promise<void> {
  const event = makeEvent(BucketListItemAdded, item._id, {
    itemId: item._id,
    ownerId,
    place: item.place,
    latitude: item.latitude,
    longitude: item.longitude,
  });
  await enqueueEvent(client, BucketListItemAdded.topic, event);
}

/** Records `bucketlist.item.visited` for an item just marked visited. */
export async function enqueueItemVisited(
  client: PoolClient,
  ownerId: string,
  item: BucketListItem,
): Promise<void> {
  const event = makeEvent(BucketListItemVisited, item._id, {
    itemId: item._id,
    ownerId,
    visitedAt: item.visitedAt ?? new Date().toISOString(),
    ...(item.visitedByTrip ? { visitedByTrip: item.visitedByTrip } : {}),
  });
  await enqueueEvent(client, BucketListItemVisited.topic, event);
}

/** Records `bucketlist.itinerary.saved` with the full new list. */
export async function enqueueItinerarySaved(
  client: PoolClient,
  ownerId: string,
  itemId: string,
  itinerary: readonly string[],
): Promise<void> {
  const event = makeEvent(BucketListItinerarySaved, itemId, {
    itemId,
    ownerId,
    itinerary: [...itinerary],
  });
  await enqueueEvent(client, BucketListItinerarySaved.topic, event);
}
