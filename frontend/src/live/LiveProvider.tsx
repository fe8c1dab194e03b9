import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { ApiError } from '../api/client';
import { useRefreshWhileVisible } from '../components/useRefreshWhileVisible';
import { fetchFriendRequests } from '../friends/api';
import { fetchConversations, markConversationRead } from '../inbox/api';
import {
  conversationsView,
  inboxReducer,
  initialInboxState,
  unreadConversations,
  type InboxState,
} from '../inbox/inboxState';
import { fetchNotifications, markNotificationsRead } from '../notifications/api';
import {
  bellReducer,
  initialBellState,
  unreadIds,
  type BellState,
} from '../notifications/notificationsState';
import { connectLive } from '../notifications/socket';

/** How often the counts are read again while the page is visible (pushes come meanwhile). */
export const LIVE_REFRESH_MS = 60_000;

export interface LiveValue {
  bell: BellState;
  inbox: InboxState;
  /** Whether the socket that brings the pushes is connected. */
  connected: boolean;
  /** Pending friend requests (the Friends count); null until first read. */
  requests: number | null;
  /** Conversations with unread messages (the Messages count). */
  unreadConversations: number;
  loadNotifications(): void;
  loadMoreNotifications(): void;
  markRead(ids: readonly string[]): void;
  markAllRead(): void;
  dismissMarkError(): void;
  refreshInbox(): void;
  /** The user has the conversation open: mark it read (and its message notifications). */
  conversationRead(roomId: string): void;
  /** The friends screen's own read of the requests (their count). */
  setRequests(count: number): void;
}

const LiveContext = createContext<LiveValue | null>(null);

/**
 * The signed-in layout's live state (it joins the notifications, inbox and friends features, so
 * none of them imports another): the bell's notifications and unread count, the
 * inbox, the pending friend requests. Read on mount, every `LIVE_REFRESH_MS` and when the window
 * regains focus, and after a reconnect; kept current between by the socket's `notification`
 * pushes (a request read the requests again, a message updates the inbox at once and reads it).
 */
export function LiveProvider({ children }: { children: ReactNode }) {
  const [bell, dispatchBell] = useReducer(bellReducer, initialBellState);
  const [inbox, dispatchInbox] = useReducer(inboxReducer, initialInboxState);
  const [requests, setRequests] = useState<number | null>(null);
  const [connected, setConnected] = useState(false);
  const bellRef = useRef(bell);
  bellRef.current = bell;
  const alive = useRef<AbortController | null>(null);
  /** The signal of the first page's read in flight (one at a time per mount). */
  const loadingBell = useRef<AbortSignal | null>(null);
  const inboxSeq = useRef({ started: 0, applied: 0 });

  useEffect(() => {
    const controller = new AbortController();
    alive.current = controller;
    return () => controller.abort();
  }, []);

  const loadNotifications = useCallback(() => {
    const signal = alive.current?.signal;
    if (!signal || signal.aborted || loadingBell.current === signal) return;
    loadingBell.current = signal;
    dispatchBell({ type: 'load-start' });
    fetchNotifications({ signal })
      .then(
        (page) => dispatchBell({ type: 'loaded', page }),
        (e: unknown) => {
          if (signal?.aborted) return;
          console.error('Failed to fetch notifications', e);
          dispatchBell({ type: 'load-failed' });
        },
      )
      .finally(() => {
        if (loadingBell.current === signal) loadingBell.current = null;
      });
  }, []);

  const loadMoreNotifications = useCallback(() => {
    const { nextCursor, loadingMore } = bellRef.current;
    const signal = alive.current?.signal;
    if (nextCursor === null || loadingMore) return;
    dispatchBell({ type: 'more-start' });
    fetchNotifications({ cursor: nextCursor, signal }).then(
      (page) => dispatchBell({ type: 'more-loaded', page }),
      (e: unknown) => {
        if (signal?.aborted) return;
        console.error('Failed to fetch older notifications', e);
        dispatchBell({ type: 'more-failed' });
      },
    );
  }, []);

  const markFailed = useCallback(
    (e: unknown) => {
      console.error('Failed to mark notifications read', e);
      if (alive.current?.signal.aborted) return;
      dispatchBell({ type: 'read-failed' });
      loadNotifications(); // what the server holds, read again
    },
    [loadNotifications],
  );

  const markRead = useCallback(
    (ids: readonly string[]) => {
      const unread = ids.filter((id) => bellRef.current.items.some((n) => n._id === id && !n.read));
      if (unread.length === 0) return;
      dispatchBell({ type: 'read', ids: unread });
      markNotificationsRead({ ids: unread }).then(
        (count) => dispatchBell({ type: 'read-done', unread: count }),
        markFailed,
      );
    },
    [markFailed],
  );

  const markAllRead = useCallback(() => {
    dispatchBell({ type: 'all-read' });
    markNotificationsRead({ all: true }).then(
      (count) => dispatchBell({ type: 'read-done', unread: count }),
      markFailed,
    );
  }, [markFailed]);

  // answers applied in the order the reads started: an older one never overwrites a newer
  const refreshInbox = useCallback(() => {
    const signal = alive.current?.signal;
    if (signal?.aborted) return;
    const seq = ++inboxSeq.current.started;
    dispatchInbox({ type: 'load-start' });
    fetchConversations(signal).then(
      (conversations) => {
        if (signal?.aborted || seq < inboxSeq.current.applied) return;
        inboxSeq.current.applied = seq;
        dispatchInbox({ type: 'loaded', conversations });
      },
      (e: unknown) => {
        if (signal?.aborted) return;
        console.error('Failed to fetch conversations', e);
        dispatchInbox({ type: 'load-failed' });
      },
    );
  }, []);

  const refreshRequests = useCallback(() => {
    const signal = alive.current?.signal;
    fetchFriendRequests(signal).then(
      (list) => {
        if (!signal?.aborted) setRequests(list.length);
      },
      (e: unknown) => {
        if (!signal?.aborted) console.error('Failed to fetch friend requests', e);
      },
    );
  }, []);

  const refreshAll = useCallback(() => {
    loadNotifications();
    refreshInbox();
    refreshRequests();
  }, [loadNotifications, refreshInbox, refreshRequests]);
  useRefreshWhileVisible(refreshAll, LIVE_REFRESH_MS);

  useEffect(
    () =>
      connectLive({
        onConnect: (again) => {
          setConnected(true);
          if (again) refreshAll();
        },
        onDisconnect: () => setConnected(false),
        onNotification: ({ notification, unread }) => {
          dispatchBell({ type: 'pushed', notification, unread });
          if (notification.kind === 'message') {
            dispatchInbox({ type: 'pushed', notification });
            refreshInbox();
          } else if (notification.kind !== 'friend_trip') {
            refreshRequests();
          }
        },
      }),
    [refreshAll, refreshInbox, refreshRequests],
  );

  const conversationRead = useCallback(
    (roomId: string) => {
      dispatchInbox({ type: 'room-read', roomId });
      markRead(
        unreadIds(bellRef.current, (n) => n.kind === 'message' && n.subject.roomId === roomId),
      );
      markConversationRead(roomId)
        .catch((e: unknown) => {
          // 404: no message in it yet (or not in the inbox yet): nothing to mark
          if (!(e instanceof ApiError && e.status === 404)) {
            console.error('Failed to mark the conversation read', e);
          }
        })
        .finally(refreshInbox);
    },
    [markRead, refreshInbox],
  );

  const value = useMemo<LiveValue>(
    () => ({
      bell,
      inbox,
      connected,
      requests,
      unreadConversations: unreadConversations(inbox),
      loadNotifications,
      loadMoreNotifications,
      markRead,
      markAllRead,
      dismissMarkError: () => dispatchBell({ type: 'mark-error-dismiss' }),
      refreshInbox,
      conversationRead,
      setRequests,
    }),
    [
      bell,
      inbox,
      connected,
      requests,
      loadNotifications,
      loadMoreNotifications,
      markRead,
      markAllRead,
      refreshInbox,
      conversationRead,
    ],
  );
  return <LiveContext.Provider value={value}>{children}</LiveContext.Provider>;
}

/** The layout's live state; null outside the signed-in layout. */
export function useLive(): LiveValue | null {
  return useContext(LiveContext);
}

/** The inbox's conversations as shown (the answer with pushed messages applied). */
export function useConversations() {
  const live = useLive();
  const inbox = live?.inbox ?? initialInboxState;
  return {
    load: inbox.load,
    conversations: useMemo(() => conversationsView(inbox), [inbox]),
    refresh: live?.refreshInbox,
  };
}
