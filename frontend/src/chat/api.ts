import { ChatLimits, type ConversationResponse } from '@wayfarer/contracts';
import { apiFetch } from '../api/client';

/**
 * `GET /api/conversation/{roomId}`: one page of the room's history,
 * oldest to newest within the page, and the cursor of the page before it (null: nothing older).
 * Without `before` it is the newest page.
 */
export async function fetchConversation(
  roomId: string,
  {
    before,
    limit = ChatLimits.firstPage,
    signal,
  }: {
    before?: string | null;
    limit?: number;
    signal?: AbortSignal;
  } = {},
): Promise<
  Pick<ConversationResponse, 'nextCursor'> & {
    messages: ConversationResponse['conversation']['messages'];
  }
> {
  const query = new URLSearchParams({ limit: String(limit) });
  if (before) query.set('before', before);
  const answer = await apiFetch<Partial<ConversationResponse> | null>(
    `/api/conversation/${encodeURIComponent(roomId)}?${query}`,
    { signal },
  );
  const messages = answer?.conversation?.messages;
  if (!Array.isArray(messages)) throw new Error('Unexpected conversation answer');
  return { messages, nextCursor: answer?.nextCursor ?? null };
}
