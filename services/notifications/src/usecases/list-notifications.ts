import type { NotificationsResponse } from '@wayfarer/contracts';
import { encodeTimeCursor, type TimeCursor } from '@wayfarer/service-kit';
import type { NotificationsDeps } from './deps';

/** One page of the caller's notifications newest first after `after`, with their unread count. */
export async function listNotifications(
  deps: NotificationsDeps,
  userId: string,
  after: TimeCursor | null,
  limit: number,
): Promise<NotificationsResponse> {
  const page = await deps.stores.notifications.page(userId, after, limit, deps.now());
  return {
    notifications: page.notifications,
    unread: page.unread,
    nextCursor: page.last ? encodeTimeCursor(page.last) : null,
  };
}
