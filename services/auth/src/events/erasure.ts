import type { Kafka } from 'kafkajs';
import { readEvent, Topics, UserDeleted } from '@wayfarer/contracts';
import {
  startConsumerInBackground,
  type BackgroundConsumer,
  type Logger,
} from '@wayfarer/service-kit';
import type { ObjectStore } from '@wayfarer/storage';
import { avatarPrefix } from '../domain/avatar';

/** auth's consumer of its own `user.deleted`: its processed-event key and group name. */
export const ERASURE_CONSUMER = 'auth-erasure';

/**
 * The part of a closed account that cannot go in the request's transaction: the avatar objects
 * in MinIO. `DELETE /api/account` removes them at once when it can; this consumer of auth's own
 * `user.deleted` removes whatever is still under the user's prefix, and a failure (MinIO down)
 * throws, so the event is retried until it succeeds. Removing a prefix twice is harmless, so no
 * marker is needed.
 */
export function startErasureConsumer(options: {
  kafka: Kafka;
  logger: Logger;
  avatars: ObjectStore;
  groupId: string;
  skipHistory?: boolean;
}): BackgroundConsumer {
  const { avatars, logger } = options;
  return startConsumerInBackground({
    kafka: options.kafka,
    logger,
    groupId: options.groupId,
    topics: [Topics.authUser],
    skipHistory: options.skipHistory,
    handle: async (event) => {
      const deleted = readEvent(UserDeleted, event);
      if (!deleted) return;
      const removed = await avatars.removePrefix(avatarPrefix(deleted.payload.userId));
      if (removed > 0) logger.info({ removed }, 'erasure: avatar objects removed');
    },
  });
}
