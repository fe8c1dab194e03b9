import type { NotificationPushMessage } from '@wayfarer/contracts';
import type { PoolClient } from '@wayfarer/service-kit/pg';
import { isKept, type NotificationDraft } from '../domain/notifications';
import type { NotificationsStores } from './deps';

/**
 * Stores `draft` for its recipients unless what it tells of is older than the kept window (a
 * late replay); returns what to push.
 */
export function notify(
  stores: NotificationsStores,
  client: PoolClient,
  draft: NotificationDraft,
  now: Date,
): Promise<NotificationPushMessage[]> {
  return isKept(draft.createdAt, now)
    ? stores.notifications.insert(client, draft, now)
    : Promise.resolve([]);
}
