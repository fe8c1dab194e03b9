import type { InboxMessage } from '../domain/inbox';
import type { ChatStores } from '../store';

/**
 * A stored message (chat's own `message.sent`) in both users' inboxes: the last message, the
 * recipient's unread count, the sender's read time. Idempotent and order-safe per entry.
 */
export async function updateInboxes(stores: ChatStores, message: InboxMessage): Promise<void> {
  await stores.inbox.applyMessage(message, (id) => stores.users.profile(id));
}
