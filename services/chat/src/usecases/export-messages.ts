import { exportedMessages, otherIdsOf, type ExportedMessage } from '../domain/export';
import type { ChatUseCaseDeps } from './deps';

/**
 * The user's `messages` area of the account export: every message they sent and received,
 * with the other person's id and name.
 */
export async function exportMessages(
  { stores }: ChatUseCaseDeps,
  userId: string,
): Promise<ExportedMessage[]> {
  const messages = await stores.messages.ofUser(userId);
  const users = await stores.users.byIds(
    otherIdsOf(userId, new Set(messages.map((m) => m.roomId))),
  );
  return exportedMessages(userId, messages, (id) => users.get(id)?.name ?? '');
}
