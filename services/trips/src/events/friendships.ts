/**
 * trips' consumer of social's `social.friendship.v1` events into its read model of friendships
 * (who may see whose photos; service-kit's `friendshipProjection`): its group id (behind
 * KAFKA_GROUP_PREFIX) and processed-event key.
 */
export const FRIENDSHIP_CONSUMER = 'trips-friendships';
