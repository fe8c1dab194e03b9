/**
 * bucketlist's consumers: each name is its processed-event key and, behind KAFKA_GROUP_PREFIX
 * (`groupId(env, name)`), its Kafka consumer group.
 */
export const CONSUMERS = {
  /** trips' `trips.trip.v1`: places a trip travelled to are ticked off (trips.ts). */
  trips: 'bucketlist-trips',
  /** auth's `auth.user.v1`: a closed account's places go (erasure.ts). */
  erasure: 'bucketlist-erasure',
} as const;

/** What every consumer takes besides its own dependencies. */
export interface ConsumerOptions {
  /** Tests only: a new group starts at the topic's end as of now (service-kit). */
  skipHistory?: boolean;
  /** Delay cap between attempts to join while Kafka is unreachable at start. */
  maxRetryDelayMs?: number;
}
