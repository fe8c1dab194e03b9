import type { ConversationSummary, Notification } from '@wayfarer/contracts';

/*
 * The inbox's state: the conversations as `GET /api/conversations` last answered,
 * and the messages pushed since (a `message` notification) that the answer does not show yet.
 * chat's inbox and the notification come from the same `message.sent` event through two
 * consumers, so the push can arrive before the inbox has the message: until an answer shows it,
 * the pushed message stands in (its preview, its time, one more unread). Pure.
 */

export const INBOX_TEXTS = {
  title: 'Messages',
  subtitle: 'Your conversations with friends, newest first.',
  empty:
    'No conversations yet. Say hello to a friend from the Friends page: your chats show up here.',
  loadFailed: 'Could not load your conversations.',
  you: 'You: ',
} as const;

/** A message pushed as a notification, not yet in an answer. */
export interface PendingMessage {
  roomId: string;
  messageId: string;
  preview: string;
  /** The notification's time (the event's: at or after the message's own timestamp). */
  at: string;
  friend: { id: string; name: string; picture: string };
}

export interface InboxState {
  load: 'loading' | 'ready' | 'failed';
  conversations: ConversationSummary[];
  pending: PendingMessage[];
}

export const initialInboxState: InboxState = { load: 'loading', conversations: [], pending: [] };

export type InboxAction =
  | { type: 'load-start' }
  | { type: 'loaded'; conversations: ConversationSummary[] }
  | { type: 'load-failed' }
  | { type: 'pushed'; notification: Notification }
  /** The user opened the conversation: nothing in it is unread. */
  | { type: 'room-read'; roomId: string };

/** Whether the answer's conversation already shows the pushed message (or a later one). */
function shows(conversation: ConversationSummary | undefined, p: PendingMessage): boolean {
  if (!conversation) return false;
  const last = conversation.lastMessage;
  return last._id === p.messageId || last.timestamp >= p.at;
}

const roomOf = (conversations: readonly ConversationSummary[], roomId: string) =>
  conversations.find((c) => c.roomId === roomId);

export function inboxReducer(state: InboxState, action: InboxAction): InboxState {
  switch (action.type) {
    case 'load-start':
      return state.load === 'ready' ? state : { ...state, load: 'loading' };
    case 'loaded':
      return {
        load: 'ready',
        conversations: action.conversations,
        pending: state.pending.filter((p) => !shows(roomOf(action.conversations, p.roomId), p)),
      };
    case 'load-failed':
      return state.load === 'ready' ? state : { ...state, load: 'failed' };
    case 'pushed': {
      const n = action.notification;
      if (n.kind !== 'message') return state;
      const p: PendingMessage = {
        roomId: n.subject.roomId,
        messageId: n.subject.messageId,
        preview: n.subject.preview,
        at: n.createdAt,
        friend: n.actor,
      };
      if (state.pending.some((x) => x.messageId === p.messageId)) return state;
      if (shows(roomOf(state.conversations, p.roomId), p)) return state;
      return { ...state, pending: [...state.pending, p] };
    }
    case 'room-read': {
      const had = state.conversations.some((c) => c.roomId === action.roomId && c.unread > 0);
      const pending = state.pending.filter((p) => p.roomId !== action.roomId);
      if (!had && pending.length === state.pending.length) return state;
      return {
        ...state,
        conversations: state.conversations.map((c) =>
          c.roomId === action.roomId && c.unread > 0 ? { ...c, unread: 0 } : c,
        ),
        pending,
      };
    }
  }
}

const newestFirst = (a: ConversationSummary, b: ConversationSummary) =>
  b.lastMessage.timestamp.localeCompare(a.lastMessage.timestamp);

/** The conversations as shown: the answer with the pending pushes applied, newest first. */
export function conversationsView(state: InboxState): ConversationSummary[] {
  const byRoom = new Map(state.conversations.map((c) => [c.roomId, c]));
  const pending = [...state.pending].sort((a, b) => a.at.localeCompare(b.at));
  for (const p of pending) {
    const current = byRoom.get(p.roomId);
    byRoom.set(p.roomId, {
      roomId: p.roomId,
      friend: current?.friend ?? p.friend,
      lastMessage: { _id: p.messageId, content: p.preview, timestamp: p.at, senderId: p.friend.id },
      unread: (current?.unread ?? 0) + 1,
    });
  }
  return [...byRoom.values()].sort(newestFirst);
}

/** How many conversations have unread messages (the Messages count in the navigation). */
export function unreadConversations(state: InboxState): number {
  return conversationsView(state).filter((c) => c.unread > 0).length;
}

/** The row's preview: 'You: ' before the user's own last message (not the friend's). */
export function previewOf(conversation: ConversationSummary): string {
  const { content, senderId } = conversation.lastMessage;
  return senderId !== conversation.friend.id ? `${INBOX_TEXTS.you}${content}` : content;
}
