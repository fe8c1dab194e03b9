import { z } from 'zod';

/**
 * Kafka topics: one per aggregate, versioned in the name. A breaking change to an
 * event's payload gets a new topic (`...v2`) so old consumers keep working.
 */
export const Topics = {
  // produced by auth (user.registered, user.updated, user.deleted); consumed by every service
  // holding a user's data (user.deleted: erasure)
  authUser: 'auth.user.v1',
  tripsTrip: 'trips.trip.v1',
  // produced by bucketlist (item added, visited, itinerary saved); no consumer yet
  bucketlistItem: 'bucketlist.item.v1',
  // produced by social (friend.requested, friendship.created/removed); consumed by trips and journal
  socialFriendship: 'social.friendship.v1',
  journalEntry: 'journal.entry.v1',
  // produced by chat (message.sent); consumed by notifications and chat's own inbox
  chatMessage: 'chat.message.v1',
} as const;
export type Topic = (typeof Topics)[keyof typeof Topics];

/** The envelope every event travels in. Keyed in Kafka by `aggregateId`. */
export const EventEnvelope = z.object({
  id: z.uuid(),
  type: z.string().min(1),
  version: z.number().int().positive(),
  occurredAt: z.iso.datetime(),
  aggregateId: z.string().min(1),
  payload: z.unknown(),
});
export type EventEnvelope<P = unknown> = Omit<z.infer<typeof EventEnvelope>, 'payload'> & {
  payload: P;
};

/** A typed event definition: its topic, type name, version and payload schema. */
export interface EventDefinition<S extends z.ZodType> {
  topic: Topic;
  type: string;
  version: number;
  payload: S;
}

export function defineEvent<S extends z.ZodType>(def: EventDefinition<S>): EventDefinition<S> {
  return def;
}

/** Builds an envelope for `def`, validating the payload against its schema. */
export function makeEvent<S extends z.ZodType>(
  def: EventDefinition<S>,
  aggregateId: string,
  payload: z.input<S>,
  now: Date = new Date(),
): EventEnvelope<z.output<S>> {
  return {
    // Web Crypto: the same in Node and browsers, so contracts stay browser-safe
    id: globalThis.crypto.randomUUID(),
    type: def.type,
    version: def.version,
    occurredAt: now.toISOString(),
    aggregateId,
    payload: def.payload.parse(payload),
  };
}

/** Parses raw bytes from Kafka into an envelope; throws a ZodError/SyntaxError on junk. */
export function parseEnvelope(raw: Uint8Array | string | null): EventEnvelope {
  if (raw === null) throw new Error('empty Kafka message');
  const text = typeof raw === 'string' ? raw : new TextDecoder().decode(raw);
  const env = EventEnvelope.parse(JSON.parse(text));
  return env as EventEnvelope;
}

/** Narrows an envelope to `def` and validates its payload. */
export function readEvent<S extends z.ZodType>(
  def: EventDefinition<S>,
  env: EventEnvelope,
): EventEnvelope<z.output<S>> | null {
  if (env.type !== def.type) return null;
  return { ...env, payload: def.payload.parse(env.payload) };
}
