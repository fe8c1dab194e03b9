import type { NotificationPushMessage } from '@wayfarer/contracts';
import type { Logger } from '@wayfarer/service-kit';
import type { NotificationPusher } from '../events/outbox';
import type { NotificationsStores } from './deps';

/**
 * After the commit that stored them: the new notifications are pushed live, then their
 * recipients are trimmed to the 500 bound. A push or a trim that fails is logged, never retried
 * as the event (the next one trims again).
 */
export async function deliver(
  deps: { stores: NotificationsStores; pusher: NotificationPusher; logger: Logger },
  messages: readonly NotificationPushMessage[],
): Promise<void> {
  if (messages.length === 0) return;
  await deps.pusher.push(messages);
  await deps.stores.notifications.trim(messages.map((m) => m.userId)).catch((err: unknown) => {
    deps.logger.warn({ err }, 'trimming notifications failed');
  });
}
