import type { ConversationReadResponse, ConversationSummary } from '@wayfarer/contracts';
import { apiFetch } from '../api/client';

/** `GET /api/conversations` (chat): the caller's conversations, newest first. */
export async function fetchConversations(signal?: AbortSignal): Promise<ConversationSummary[]> {
  const answer = await apiFetch<unknown>('/api/conversations', { signal });
  if (!Array.isArray(answer)) throw new Error('Unexpected conversations answer');
  return answer as ConversationSummary[];
}

/** `POST /api/conversations/{roomId}/read`: the caller read the conversation up to now. */
export async function markConversationRead(roomId: string): Promise<void> {
  await apiFetch<ConversationReadResponse>(
    `/api/conversations/${encodeURIComponent(roomId)}/read`,
    { method: 'POST' },
  );
}
