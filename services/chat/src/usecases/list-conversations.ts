import type { ChatUseCaseDeps } from './deps';

/**
 * The caller's conversations with friends, newest last message first (contracts'
 * ConversationsResponse), as JSON text: the store answers an unchanged inbox from what it
 * built last.
 */
export function listConversationsJson(
  { stores }: ChatUseCaseDeps,
  userId: string,
): Promise<string> {
  return stores.inbox.listJson(userId);
}
