import { INTERNAL_EXPORT_PATH, type ExportAreaDocument } from '@wayfarer/contracts';
import { requireUserId } from '@wayfarer/service-kit';
import { exportedMessages, otherIdsOf } from '../domain/export';
import type { ChatContext } from './context';

/**
 * Issue 22: the user's `messages` area of the account export (every message they sent and
 * received, with the other person's id and name), for trips' `GET /api/export` (an identity
 * proof for the user; the gateway does not route this path).
 */
export function exportRoutes(ctx: ChatContext): void {
  const { app, stores } = ctx;
  app.get(INTERNAL_EXPORT_PATH, async (request) => {
    const userId = requireUserId(request);
    const messages = await stores.messages.ofUser(userId);
    const users = await stores.users.byIds(
      otherIdsOf(userId, new Set(messages.map((m) => m.roomId))),
    );
    const items = exportedMessages(userId, messages, (id) => users.get(id)?.name ?? '');
    const body: ExportAreaDocument = { area: 'messages', items };
    return body;
  });
}
