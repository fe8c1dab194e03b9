import type { Consumer, Kafka } from 'kafkajs';
import type { Db } from 'mongodb';
import { Topics } from '@wayfarer/contracts';
import { startConsumer, type Logger } from '@wayfarer/service-kit';
import { mongoIdempotentHandler, type FriendshipProjection } from '@wayfarer/service-kit/mongo';

export const FRIENDSHIP_GROUP = 'trips-friendships';

/**
 * Keeps trips' read model of friendships (who may see whose photos) from social's
 * `social.friendship.v1` events. `apply` is idempotent and order-safe; the processed-event
 * marker only saves repeated work on redelivery.
 */
export async function startFriendshipConsumer(options: {
  kafka: Kafka;
  db: Db;
  projection: FriendshipProjection;
  logger: Logger;
  groupId?: string;
}): Promise<Consumer> {
  const groupId = options.groupId ?? FRIENDSHIP_GROUP;
  const handle = mongoIdempotentHandler(options.db, groupId, async (event) => {
    await options.projection.apply(event);
  });
  return startConsumer({
    kafka: options.kafka,
    groupId,
    topics: [Topics.socialFriendship],
    logger: options.logger,
    handle: async (event) => {
      await handle(event);
    },
  });
}

/**
 * Starts the consumer without holding up the service: while Kafka is unreachable it retries
 * in the background (photos of friends stay hidden until the projection catches up; owners
 * are unaffected). Resolves the returned `stop` once stopped.
 */
export function startFriendshipConsumerInBackground(
  options: Parameters<typeof startFriendshipConsumer>[0] & { retryMs?: number },
): { stop(): Promise<void> } {
  let consumer: Consumer | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const log = options.logger.child({ component: 'friendship-consumer' });

  const attempt = async () => {
    timer = null;
    try {
      const started = await startFriendshipConsumer(options);
      if (stopped) await started.disconnect();
      else consumer = started;
    } catch (err) {
      log.warn({ err }, 'could not start the friendship consumer; will retry');
      if (!stopped) timer = setTimeout(() => void attempt(), options.retryMs ?? 5000);
    }
  };
  void attempt();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await consumer?.disconnect();
    },
  };
}
