import type { Redis } from 'ioredis';
import {
  NOTIFICATIONS_PUSH_CHANNEL,
  type NotificationPushMessage,
  type Topic,
} from '@wayfarer/contracts';
import type { Logger } from '@wayfarer/service-kit';

/**
 * What notifications publishes: no Kafka topic (its relay only prunes the consumer markers), and
 * the live push below.
 */
export const PUBLISHED_TOPICS: readonly Topic[] = [];

/**
 * The live push: each stored notification is published on `NOTIFICATIONS_PUSH_CHANNEL`, where
 * every chat instance hears it and emits it to its own sockets of the user (chat runs the
 * sharded socket.io adapter, which `@socket.io/redis-emitter` cannot reach; docs/architecture.md,
 * "Notifications"). Best effort, like any push: the notification is stored first, and a client
 * that missed the push (disconnected, Redis away) reads `GET /api/notifications` when it
 * reconnects. Never throws: a failed publish is logged.
 */
export class NotificationPusher {
  constructor(
    private readonly redis: Redis,
    private readonly logger: Logger,
  ) {}

  /** Publishes each message, in order, in one round trip. */
  async push(messages: readonly NotificationPushMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const message of messages) {
      pipeline.publish(NOTIFICATIONS_PUSH_CHANNEL, JSON.stringify(message));
    }
    try {
      const results = (await pipeline.exec()) ?? [];
      const failed = results.find(([err]) => err !== null);
      if (failed) throw failed[0];
    } catch (err) {
      this.logger.warn({ err, count: messages.length }, 'notification push failed');
    }
  }
}
