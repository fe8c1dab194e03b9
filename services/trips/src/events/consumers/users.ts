import type { Kafka } from 'kafkajs';
import type { Db } from 'mongodb';
import { readEvent, Topics, UserDeleted } from '@wayfarer/contracts';
import type { BackgroundConsumer, Logger } from '@wayfarer/service-kit';
import { startMongoProjections } from '@wayfarer/service-kit/mongo';
import { eraseUser, type EraseUserDeps } from '../../usecases/erase-user';
import { CONSUMERS } from '.';

/**
 * Erases a closed account's trips, photos and friendships when auth's `user.deleted` arrives
 * (`usecases/erase-user.ts`) from auth's `auth.user.v1`; a failure (MinIO or MongoDB down) is retried, so a delay never
 * loses the erasure. Its own `startMongoProjections`, beside the friendship consumer.
 */
export function startErasure(options: {
  kafka: Kafka;
  db: Db;
  logger: Logger;
  groupId: string;
  deps: EraseUserDeps;
  skipHistory?: boolean;
}): { consumer: BackgroundConsumer; stop(): Promise<void> } {
  const { deps, logger } = options;
  const projections = startMongoProjections({
    kafka: options.kafka,
    db: options.db,
    logger,
    skipHistory: options.skipHistory,
    projections: {
      erasure: {
        name: CONSUMERS.erasure,
        groupId: options.groupId,
        topics: [Topics.authUser],
        apply: async (event) => {
          const deleted = readEvent(UserDeleted, event);
          if (!deleted) return;
          const trips = await eraseUser(deps, deleted.payload.userId);
          logger.info({ trips }, 'erasure: a closed account’s trips deleted');
        },
      },
    },
  });
  return { consumer: projections.consumers.erasure, stop: () => projections.stop() };
}
