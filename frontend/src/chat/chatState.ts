import type { ConversationMessage, ReceiveMessage } from '@wayfarer/contracts';

/**
 * The chat screen's state (`/messages/{id}`), free of
 * React and of the socket so its rules are unit tested:
 *
 * - the history's newest page (`ChatLimits.firstPage`, 10) on opening; 'Load more messages' puts
 *   the page before it (`ChatLimits.morePage`, 20, from the cursor) in front, in order;
 * - a sent message shows at once as pending (keyed by its `clientId`), becomes the stored
 *   message when the ack or the broadcast brings it (whichever comes first; the other is
 *   dropped by the stored `_id`), or shows as not sent when the ack refuses it;
 * - a received message is shown once, however often it arrives (live event, history page,
 *   catch-up after a reconnect): every stored message is keyed by its `_id`;
 * - after a reconnect the newest history page is merged in (what was missed while away), with
 *   nothing shown twice and no hole: when that page does not reach back to what is shown, the
 *   view starts again from it (the cursor then leads to the rest).
 */

export const CHAT_TEXTS = {
  noFriend: 'No friend selected to message.',
  loadMore: 'Load more messages',
  historyFailed: 'An error occurred',
  empty: 'No messages yet. Say hello!',
  reconnecting: 'Connection lost. Reconnecting…',
  offline: 'Disconnected from chat.',
  notSent: 'Not sent',
  sending: 'Sending…',
} as const;

export type MessageStatus = 'pending' | 'sent' | 'failed';

export interface ChatMessage {
  /** The stored message's `_id`, or `local:<clientId>` while it is not confirmed. */
  key: string;
  /** The stored `_id`; null while pending or failed. */
  id: string | null;
  /** The client's id for a message sent from here (matches the ack and the broadcast). */
  clientId: string | null;
  from: string;
  text: string;
  /** ISO 8601 (the server's once stored; the client's while pending). */
  timestamp: string;
  status: MessageStatus;
  /** Why a failed message was not sent. */
  error: string | null;
}

export type Connection = 'connecting' | 'connected' | 'reconnecting' | 'offline';

export interface ChatState {
  /** Oldest to newest; messages sent from here and not yet confirmed are last. */
  messages: ChatMessage[];
  history: 'loading' | 'ready' | 'failed';
  historyError: string | null;
  /** Passed as `before` for the page before the oldest shown; null when there is none. */
  cursor: string | null;
  loadingMore: boolean;
  moreError: string | null;
  connection: Connection;
  /** Why the socket is down or the room could not be joined (a server text), if known. */
  connectionError: string | null;
}

export const initialChatState: ChatState = {
  messages: [],
  history: 'loading',
  historyError: null,
  cursor: null,
  loadingMore: false,
  moreError: null,
  connection: 'connecting',
  connectionError: null,
};

export type ChatAction =
  | { type: 'history-start' }
  | { type: 'history-loaded'; messages: ConversationMessage[]; nextCursor: string | null }
  | { type: 'history-failed'; message?: string | null }
  | { type: 'more-start' }
  | { type: 'more-loaded'; messages: ConversationMessage[]; nextCursor: string | null }
  | { type: 'more-failed'; message?: string | null }
  | { type: 'send'; clientId: string; from: string; text: string; timestamp: string }
  | { type: 'ack'; clientId: string; message: ReceiveMessage }
  | { type: 'ack-failed'; clientId: string; error: string }
  | { type: 'retry'; clientId: string; timestamp: string }
  | { type: 'received'; message: ReceiveMessage }
  | { type: 'caught-up'; messages: ConversationMessage[]; nextCursor: string | null }
  | { type: 'connection'; connection: Connection; error?: string | null };

/** The text to send, or null when there is nothing to send (empty or whitespace only). */
export function sendableText(draft: string): string | null {
  const text = draft.trim();
  return text === '' ? null : text;
}

const stored = (m: {
  _id: string;
  from: string;
  text: string;
  timestamp: string;
  clientId?: string;
}): ChatMessage => ({
  key: m._id,
  id: m._id,
  clientId: m.clientId ?? null,
  from: m.from,
  text: m.text,
  timestamp: m.timestamp,
  status: 'sent',
  error: null,
});

export const fromHistory = (m: ConversationMessage): ChatMessage =>
  stored({ _id: m._id, from: m.sender._id, text: m.content, timestamp: m.timestamp });

const fromLive = (m: ReceiveMessage): ChatMessage => stored(m);

const byTime = (a: ChatMessage, b: ChatMessage) =>
  a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : a.key < b.key ? -1 : 1;

/**
 * Adds stored messages to the list: each `_id` once, stored ones in time order, the unconfirmed
 * ones (pending, failed) after them in the order they were written. A stored message carrying
 * the `clientId` of an unconfirmed one replaces it.
 */
export function mergeStored(list: readonly ChatMessage[], incoming: readonly ChatMessage[]) {
  const known = new Set<string>();
  const confirmed: ChatMessage[] = [];
  for (const m of list) {
    if (m.id !== null && !known.has(m.id)) {
      known.add(m.id);
      confirmed.push(m);
    }
  }
  const clientIds = new Set<string>();
  for (const m of incoming) {
    if (m.id === null || known.has(m.id)) continue;
    known.add(m.id);
    confirmed.push(m);
    if (m.clientId) clientIds.add(m.clientId);
  }
  const unconfirmed = list.filter(
    (m) => m.id === null && !(m.clientId !== null && clientIds.has(m.clientId)),
  );
  return [...confirmed.sort(byTime), ...unconfirmed];
}

/**
 * A history message has no `clientId`: a message from me whose ack was lost (the connection
 * dropped after the server stored it) comes back in the catch-up page as a stranger. The
 * unconfirmed message of mine with the same text, the oldest first, is that one.
 */
function claimUnconfirmed(list: readonly ChatMessage[], incoming: readonly ChatMessage[]) {
  const known = new Set(list.flatMap((m) => (m.id ? [m.id] : [])));
  const claimed = new Set<string>();
  const out = incoming.map((m) => {
    if (m.clientId || known.has(m.id!)) return m;
    const mine = list.find(
      (u) =>
        u.id === null &&
        u.clientId !== null &&
        !claimed.has(u.clientId) &&
        u.from === m.from &&
        u.text === m.text,
    );
    if (!mine) return m;
    claimed.add(mine.clientId!);
    return { ...m, clientId: mine.clientId };
  });
  return out;
}

function oldestStored(list: readonly ChatMessage[]): string | null {
  for (const m of list) if (m.id !== null) return m.timestamp;
  return null;
}

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'history-start':
      return { ...state, history: 'loading', historyError: null };
    case 'history-loaded':
      // live messages may have arrived (after joining) before the page did
      return {
        ...state,
        history: 'ready',
        historyError: null,
        messages: mergeStored(state.messages, action.messages.map(fromHistory)),
        cursor: action.nextCursor,
      };
    case 'history-failed':
      return {
        ...state,
        history: 'failed',
        historyError: action.message?.trim() || CHAT_TEXTS.historyFailed,
      };
    case 'more-start':
      if (state.loadingMore || state.cursor === null) return state;
      return { ...state, loadingMore: true, moreError: null };
    case 'more-loaded':
      return {
        ...state,
        loadingMore: false,
        moreError: null,
        messages: mergeStored(state.messages, action.messages.map(fromHistory)),
        cursor: action.nextCursor,
      };
    case 'more-failed':
      return {
        ...state,
        loadingMore: false,
        moreError: action.message?.trim() || CHAT_TEXTS.historyFailed,
      };
    case 'send': {
      const text = sendableText(action.text);
      if (text === null || state.messages.some((m) => m.clientId === action.clientId)) {
        return state;
      }
      const pending: ChatMessage = {
        key: `local:${action.clientId}`,
        id: null,
        clientId: action.clientId,
        from: action.from,
        text,
        timestamp: action.timestamp,
        status: 'pending',
        error: null,
      };
      return { ...state, messages: [...state.messages, pending] };
    }
    case 'ack':
      return {
        ...state,
        messages: mergeStored(state.messages, [
          fromLive({ ...action.message, clientId: action.clientId }),
        ]),
      };
    case 'ack-failed':
      return {
        ...state,
        messages: state.messages.map((m) =>
          m.id === null && m.clientId === action.clientId
            ? { ...m, status: 'failed', error: action.error }
            : m,
        ),
      };
    case 'retry':
      return {
        ...state,
        messages: [
          ...state.messages.filter((m) => m.clientId !== action.clientId || m.id !== null),
          ...state.messages
            .filter((m) => m.clientId === action.clientId && m.status === 'failed')
            .map((m) => ({
              ...m,
              status: 'pending' as const,
              error: null,
              timestamp: action.timestamp,
            })),
        ],
      };
    case 'received':
      return { ...state, messages: mergeStored(state.messages, [fromLive(action.message)]) };
    case 'caught-up': {
      const incoming = claimUnconfirmed(state.messages, action.messages.map(fromHistory));
      const oldest = oldestStored(state.messages);
      const reachesBack =
        oldest === null ||
        action.nextCursor === null ||
        incoming.some((m) => state.messages.some((s) => s.id === m.id)) ||
        incoming.some((m) => m.timestamp <= oldest);
      if (!reachesBack) {
        // more was missed than one page holds: start again from the newest page
        return {
          ...state,
          history: 'ready',
          historyError: null,
          messages: mergeStored(
            state.messages.filter((m) => m.id === null),
            incoming,
          ),
          cursor: action.nextCursor,
        };
      }
      // only what is newer than the oldest shown: 'Load more messages' keeps its place
      const newer = oldest === null ? incoming : incoming.filter((m) => m.timestamp >= oldest);
      return {
        ...state,
        history: 'ready',
        historyError: null,
        messages: mergeStored(state.messages, newer),
        cursor: oldest === null ? action.nextCursor : state.cursor,
      };
    }
    case 'connection':
      return { ...state, connection: action.connection, connectionError: action.error ?? null };
  }
}
