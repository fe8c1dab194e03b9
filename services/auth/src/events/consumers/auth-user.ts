import type { Kafka } from 'kafkajs';
import { readEvent, Topics, UserDeleted } from '@wayfarer/contracts';
import {
  startConsumerInBackground,
  type BackgroundConsumer,
  type Logger,
} from '@wayfarer/service-kit';
import type { ObjectStore } from '@wayfarer/storage';
import { eraseAvatars } from '../../usecases/erase-avatars';

/**
 * auth's consumer of its own `auth.user` topic: a `user.deleted` erases the avatars the closing
 * could not remove at once (`usecases/erase-avatars`); a failure throws, so the event is retried
 * until it succeeds. Other events of the topic are skipped.
 */
export function startAuthUserConsumer(options: {
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
      if (deleted) await eraseAvatars({ avatars }, deleted.payload.userId, logger);
    },
  });
}
