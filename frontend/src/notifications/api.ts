import {
  NotificationLimits,
  type MarkNotificationsRead,
  type MarkNotificationsReadResponse,
  type NotificationsResponse,
} from '@wayfarer/contracts';
import { apiFetch } from '../api/client';

export type { Notification, NotificationPushed } from '@wayfarer/contracts';

/**
 * `GET /api/notifications?limit=&cursor=`: one page of the caller's notifications,
 * newest first, the unread count of all of them, and the cursor of the next page (null: last).
 */
export async function fetchNotifications({
  cursor = null,
  limit = NotificationLimits.pageDefault,
  signal,
}: {
  cursor?: string | null;
  limit?: number;
  signal?: AbortSignal;
} = {}): Promise<NotificationsResponse> {
  const query = new URLSearchParams({ limit: String(limit) });
  if (cursor) query.set('cursor', cursor);
  const answer = await apiFetch<Partial<NotificationsResponse> | null>(
    `/api/notifications?${query}`,
    { signal },
  );
  if (!answer || !Array.isArray(answer.notifications) || typeof answer.unread !== 'number') {
    throw new Error('Unexpected notifications answer');
  }
  return {
    notifications: answer.notifications,
    unread: answer.unread,
    nextCursor: answer.nextCursor ?? null,
  };
}

/** `POST /api/notifications/read` with `{ids}` or `{all: true}`: the unread count after it. */
export async function markNotificationsRead(body: MarkNotificationsRead): Promise<number> {
  const answer = await apiFetch<Partial<MarkNotificationsReadResponse> | null>(
    '/api/notifications/read',
    { method: 'POST', json: body },
  );
  if (typeof answer?.unread !== 'number') throw new Error('Unexpected read answer');
  return answer.unread;
}
