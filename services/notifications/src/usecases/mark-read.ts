import type { NotificationsDeps } from './deps';

/**
 * Marks some (`ids`: those that are the caller's; any other changes nothing) or all of the
 * caller's notifications read; returns their unread count after it.
 */
export function markRead(
  deps: NotificationsDeps,
  userId: string,
  ids: readonly string[] | 'all',
): Promise<number> {
  return deps.stores.notifications.markRead(userId, ids, deps.now());
}
