import type { Redis } from 'ioredis';
import {
  NOTIFICATIONS_PUSH_CHANNEL,
  parseNotificationPush,
  type NotificationPushMessage,
} from '@wayfarer/contracts';
import type { Logger } from '@wayfarer/service-kit';
import { subscribeChannel } from './channel';

/**
 * The live push of notifications: the notifications service publishes each stored
 * notification on `NOTIFICATIONS_PUSH_CHANNEL`; every chat instance subscribes and hands it to
 * `onPush`, which emits it to the user's sockets on this instance (their own room). Together the
 * instances reach every tab and device of the user, whichever instance each is connected to.
 * Plain pub/sub on the revocations' subscriber connection (it works with the sharded socket.io
 * adapter, which `@socket.io/redis-emitter` cannot publish to): a push missed while an instance
 * is not subscribed is read by its sockets from `GET /api/notifications` when they reconnect.
 */
export function subscribeNotifications(options: {
  /** A connection in subscriber mode (it may hold other subscriptions). */
  subscriber: Redis;
  logger: Logger;
  onPush: (push: NotificationPushMessage) => void;
}): Promise<void> {
  return subscribeChannel(options.subscriber, NOTIFICATIONS_PUSH_CHANNEL, {
    parse: parseNotificationPush,
    onMessage: options.onPush,
    onUnreadable: () => options.logger.warn('unreadable notification push'),
  });
}
