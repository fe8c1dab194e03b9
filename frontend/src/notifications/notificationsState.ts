import type { Notification, NotificationsResponse } from '@wayfarer/contracts';

/*
 * The bell's state: the recent notifications, the unread count, the panel's loading,
 * paging and marking, and the live pushes merged in. Pure: the provider
 * (`LiveProvider.tsx`) makes the calls and dispatches what they answer.
 */

export const NOTIFICATION_TEXTS = {
  title: 'Notifications',
  empty: 'Nothing new yet. Friend requests, messages and friends’ new trips show up here.',
  loadFailed: 'Could not load your notifications.',
  moreFailed: 'Could not load older notifications.',
  markFailed: 'Could not mark your notifications as read.',
  markAll: 'Mark all read',
  loadMore: 'Show older',
} as const;

export type Load = 'loading' | 'ready' | 'failed';

export interface BellState {
  load: Load;
  items: Notification[];
  /** Every unread notification of the user (all pages), as the server last said. */
  unread: number;
  nextCursor: string | null;
  loadingMore: boolean;
  moreError: boolean;
  markError: boolean;
}

export const initialBellState: BellState = {
  load: 'loading',
  items: [],
  unread: 0,
  nextCursor: null,
  loadingMore: false,
  moreError: false,
  markError: false,
};

export type BellAction =
  | { type: 'load-start' }
  | { type: 'loaded'; page: NotificationsResponse }
  | { type: 'load-failed' }
  | { type: 'more-start' }
  | { type: 'more-loaded'; page: NotificationsResponse }
  | { type: 'more-failed' }
  /** The live push: a new notification and the user's unread count with it. */
  | { type: 'pushed'; notification: Notification; unread: number }
  /** Marked read here at once (optimistic); `done` carries the server's count after it. */
  | { type: 'read'; ids: readonly string[] }
  | { type: 'all-read' }
  | { type: 'read-done'; unread: number }
  | { type: 'read-failed' }
  | { type: 'mark-error-dismiss' };

/** Newest first (by time, then id, as the server orders), each notification once. */
function merged(a: readonly Notification[], b: readonly Notification[]): Notification[] {
  const byId = new Map<string, Notification>();
  for (const n of [...a, ...b]) if (!byId.has(n._id)) byId.set(n._id, n);
  return [...byId.values()].sort((x, y) =>
    x.createdAt !== y.createdAt
      ? y.createdAt.localeCompare(x.createdAt)
      : y._id.localeCompare(x._id),
  );
}

export function bellReducer(state: BellState, action: BellAction): BellState {
  switch (action.type) {
    case 'load-start':
      // a refresh keeps what is shown; only the first load shows the loading state
      return state.load === 'ready' ? state : { ...state, load: 'loading' };
    case 'loaded': {
      // pushes that arrived while the page was read stay (the page may predate them)
      const newest = action.page.notifications[0]?.createdAt ?? '';
      const later = state.items.filter((n) => n.createdAt > newest);
      return {
        ...state,
        load: 'ready',
        items: merged(later, action.page.notifications),
        unread: action.page.unread,
        nextCursor: action.page.nextCursor,
        moreError: false,
      };
    }
    case 'load-failed':
      return state.load === 'ready' ? state : { ...state, load: 'failed' };
    case 'more-start':
      return state.nextCursor === null || state.loadingMore
        ? state
        : { ...state, loadingMore: true, moreError: false };
    case 'more-loaded':
      return {
        ...state,
        items: merged(state.items, action.page.notifications),
        nextCursor: action.page.nextCursor,
        unread: action.page.unread,
        loadingMore: false,
      };
    case 'more-failed':
      return { ...state, loadingMore: false, moreError: true };
    case 'pushed':
      return {
        ...state,
        items: merged([action.notification], state.items),
        unread: action.unread,
      };
    case 'read': {
      const ids = new Set(action.ids);
      const marked = state.items.filter((n) => ids.has(n._id) && !n.read).length;
      if (marked === 0) return state;
      return {
        ...state,
        items: state.items.map((n) => (ids.has(n._id) && !n.read ? { ...n, read: true } : n)),
        unread: Math.max(0, state.unread - marked),
        markError: false,
      };
    }
    case 'all-read':
      return {
        ...state,
        items: state.items.map((n) => (n.read ? n : { ...n, read: true })),
        unread: 0,
        markError: false,
      };
    case 'read-done':
      return { ...state, unread: action.unread };
    case 'read-failed':
      return { ...state, markError: true };
    case 'mark-error-dismiss':
      return state.markError ? { ...state, markError: false } : state;
  }
}

/** The unread ids among the loaded notifications that `matches` picks. */
export function unreadIds(state: BellState, matches: (n: Notification) => boolean): string[] {
  return state.items.filter((n) => !n.read && matches(n)).map((n) => n._id);
}

/** What one notification says, after its actor's name. */
export function notificationText(n: Notification): string {
  switch (n.kind) {
    case 'friend_request':
      return 'sent you a friend request';
    case 'friend_accepted':
      return 'accepted your friend request';
    case 'message':
      return n.subject.preview ? `wrote: ${n.subject.preview}` : 'sent you a message';
    case 'friend_trip':
      return `added a trip: ${n.subject.name || 'Untitled trip'}`;
  }
}

/** The actor's name as shown ('Someone' until auth's event named them). */
export const actorName = (n: Notification): string => n.actor.name || 'Someone';

/** Where a notification leads: the requests, the conversation, the trip on the feed's map. */
export function notificationTarget(n: Notification): { to: string; state?: unknown } {
  switch (n.kind) {
    case 'friend_request':
      return { to: '/friends#requests' };
    case 'friend_accepted':
      return { to: '/friends' };
    case 'message':
      return {
        to: `/messages/${encodeURIComponent(n.actor.id)}`,
        state: { friend: { id: n.actor.id, name: n.actor.name, picture: n.actor.picture } },
      };
    case 'friend_trip':
      return { to: `/feed?trip=${encodeURIComponent(n.subject.tripId)}` };
  }
}

/** A count as a badge shows it: nothing for 0, `99+` past 99. */
export function badgeText(count: number): string {
  if (!(count > 0)) return '';
  return count > 99 ? '99+' : String(Math.floor(count));
}

/** The tab's title with the unread count in front: `(3) Wayfarer`; the title alone at 0. */
export function titleWithCount(title: string, count: number): string {
  const base = title.replace(/^\(\d+\+?\) /, '');
  const badge = badgeText(count);
  return badge ? `(${badge}) ${base}` : base;
}
