import type { Kafka } from 'kafkajs';
import {
  readEvent,
  Topics,
  TripCreated,
  TripDeleted,
  TripUpdated,
  UserDeleted,
  UserRegistered,
  UserUpdated,
  visibilityOf,
  type EventEnvelope,
} from '@wayfarer/contracts';
import {
  startConsumerInBackground,
  type BackgroundConsumer,
  type Logger,
} from '@wayfarer/service-kit';
import {
  eraseFromOutbox,
  processedEventsHandler,
  type Pool,
  type PoolClient,
} from '@wayfarer/service-kit/pg';
import { destinationCountries } from '../domain/stats';
import { friendTrip, type TripCreatedPayload } from '../domain/trips';
import { enqueueFriendshipErased } from './outbox';
import {
  addTrip,
  eraseUser,
  removeTrip,
  updateTrip,
  updateUser,
  upsertUser,
  type ProjectedTrip,
} from '../store/projections';

/** What social keeps of a trip's event: friends' view and each destination's country. */
function projectTrip(payload: TripCreatedPayload): ProjectedTrip {
  return { ...friendTrip(payload), countries: destinationCountries(payload.destinations) };
}

/**
 * social's consumers: each name is its processed-event key and, behind KAFKA_GROUP_PREFIX
 * (`groupId(env, name)`), its Kafka consumer group.
 */
export const CONSUMERS = { users: 'social-users', trips: 'social-trips' } as const;

/**
 * `user.registered` becomes (or refreshes) the user's row, `user.updated` changes its name and
 * picture (friends' lists, requests and search show the new ones at once: the friends cache
 * hears of the row). `user.deleted` erases them (`eraseUser`), removes every outbox row naming
 * them, and announces each of their friendships as erased (`friendship.removed`, `erased`), so
 * trips, journal and chat forget the pairs after any earlier event of the pair.
 */
export async function applyUserEvent(client: PoolClient, event: EventEnvelope): Promise<void> {
  const registered = readEvent(UserRegistered, event);
  if (registered) return upsertUser(client, registered.payload);
  const updated = readEvent(UserUpdated, event);
  if (updated) return updateUser(client, updated.payload);
  const deleted = readEvent(UserDeleted, event);
  if (deleted) {
    const { userId } = deleted.payload;
    const friends = await eraseUser(client, userId);
    await eraseFromOutbox(client, userId);
    for (const friend of friends) await enqueueFriendshipErased(client, userId, friend);
  }
}

/**
 * `trip.created` adds the trip friends see (and each destination's country, issue 22); `trip.updated` replaces it with its newer version
 * (name, dates, destinations, photos, visibility); `trip.deleted` takes it away for good. A
 * private trip (`visibility`, absent = friends) is kept but never in the feed.
 */
export async function applyTripEvent(client: PoolClient, event: EventEnvelope): Promise<void> {
  const created = readEvent(TripCreated, event);
  if (created) {
    const { ownerId } = created.payload;
    const at = new Date(created.occurredAt);
    await addTrip(client, ownerId, projectTrip(created.payload), at, visibilityOf(created.payload));
    return;
  }
  const updated = readEvent(TripUpdated, event);
  if (updated) {
    const { ownerId, version } = updated.payload;
    const at = new Date(updated.occurredAt);
    const visibility = visibilityOf(updated.payload);
    await updateTrip(client, ownerId, projectTrip(updated.payload), version, at, visibility);
    return;
  }
  const deleted = readEvent(TripDeleted, event);
  if (deleted) {
    await removeTrip(client, deleted.payload.tripId, new Date(deleted.occurredAt));
  }
}

export interface ConsumersOptions {
  kafka: Kafka;
  pool: Pool;
  logger: Logger;
  /** The consumer group of each consumer: `groupId(env, CONSUMERS[name])`. */
  groupIds: Record<keyof typeof CONSUMERS, string>;
  /** Tests only: a new group starts at the topic's end as of now (service-kit). */
  skipHistory?: boolean;
  maxRetryDelayMs?: number;
}

/**
 * The users and trips consumers: each event applied once (service-kit's PostgreSQL idempotent
 * handler, its marker in the same transaction as the change), joined in the background so HTTP
 * is served while Kafka is away. A payload failing its schema is logged and skipped.
 */
export function startConsumers(options: ConsumersOptions): {
  users: BackgroundConsumer;
  trips: BackgroundConsumer;
} {
  const start = (
    name: keyof typeof CONSUMERS,
    topic: string,
    apply: (client: PoolClient, event: EventEnvelope) => Promise<void>,
  ) => {
    const handle = processedEventsHandler(options.pool, CONSUMERS[name], apply);
    return startConsumerInBackground({
      kafka: options.kafka,
      logger: options.logger,
      groupId: options.groupIds[name],
      topics: [topic],
      skipHistory: options.skipHistory,
      maxRetryDelayMs: options.maxRetryDelayMs,
      handle: async (event) => {
        await handle(event);
      },
    });
  };
  return {
    users: start('users', Topics.authUser, applyUserEvent),
    trips: start('trips', Topics.tripsTrip, applyTripEvent),
  };
}
