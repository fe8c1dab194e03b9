import type { Redis } from 'ioredis';
import {
  NOTIFICATIONS_PUSH_CHANNEL,
  parseNotificationPush,
  type NotificationPushMessage,
} from '@wayfarer/contracts';
import type { Logger } from '@wayfarer/service-kit';

/**
 * The live push of notifications (issue 21): the notifications service publishes each stored
 * notification on `NOTIFICATIONS_PUSH_CHANNEL`; every chat instance subscribes and hands it to
 * `onPush`, which emits it to the user's sockets on this instance (their own room). Together the
 * instances reach every tab and device of the user, whichever instance each is connected to.
 * Plain pub/sub on the revocations' subscriber connection (it works with the sharded socket.io
 * adapter, which `@socket.io/redis-emitter` cannot publish to): a message published while an
 * instance is not subscribed is not seen by its sockets, which read `GET /api/notifications`
 * when they reconnect.
 */
export async function subscribeNotifications(options: {
  /** A connection in subscriber mode (it may hold other subscriptions). */
  subscriber: Redis;
  logger: Logger;
  onPush: (push: NotificationPushMessage) => void;
}): Promise<void> {
  const { subscriber, logger, onPush } = options;
  subscriber.on('message', (channel: string, message: string) => {
    if (channel !== NOTIFICATIONS_PUSH_CHANNEL) return;
    const push = parseNotificationPush(message);
    if (!push) {
      logger.warn('unreadable notification push');
      return;
    }
    onPush(push);
  });
  await subscriber.subscribe(NOTIFICATIONS_PUSH_CHANNEL);
}
