import { z } from 'zod';
import {
  MarkNotificationsRead,
  NotificationLimits,
  NotificationMessages,
  type MarkNotificationsReadResponse,
  type NotificationsResponse,
} from '@wayfarer/contracts';
import {
  badRequest,
  decodeTimeCursor,
  pageLimitParam,
  parse,
  requireUserId,
} from '@wayfarer/service-kit';
import { listNotifications } from '../usecases/list-notifications';
import { markRead } from '../usecases/mark-read';
import type { NotificationsContext } from './context';

const PageQuery = z.object({
  limit: pageLimitParam(NotificationLimits.pageMax, NotificationMessages.badLimit),
  cursor: z.string().optional(),
});

export function notificationRoutes({ app, deps }: NotificationsContext): void {
  /** One page of the caller's notifications, newest first, with their unread count. */
  app.get('/api/notifications', async (request) => {
    const userId = requireUserId(request);
    const { limit = NotificationLimits.pageDefault, cursor } = parse(PageQuery, request.query);
    const after = cursor === undefined ? null : decodeTimeCursor(cursor);
    if (cursor !== undefined && after === null) throw badRequest(NotificationMessages.badCursor);
    const body: NotificationsResponse = await listNotifications(deps, userId, after, limit);
    return body;
  });

  /** Marks some (`ids`) or all of the caller's notifications read; answers the unread count. */
  app.post('/api/notifications/read', async (request) => {
    const userId = requireUserId(request);
    const parsed = MarkNotificationsRead.safeParse(request.body);
    if (!parsed.success) throw badRequest(NotificationMessages.badRead);
    const ids = 'all' in parsed.data ? 'all' : parsed.data.ids;
    const body: MarkNotificationsReadResponse = { unread: await markRead(deps, userId, ids) };
    return body;
  });
}
