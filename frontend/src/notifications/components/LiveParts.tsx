import { useLive } from '../../live/LiveProvider';
import { badgeText } from '../notificationsState';
import { useTitleCount } from '../useTitleCount';
import { NotificationBell } from './NotificationBell';
import '../../styles/notifications.css';

/** The bell, inside the signed-in layout's `LiveProvider`. */
export function LiveBell() {
  const live = useLive();
  return live ? <NotificationBell live={live} /> : null;
}

/** Puts the bell's unread count in front of the tab's title. */
export function LiveTitle() {
  useTitleCount(useLive()?.bell.unread ?? 0);
  return null;
}

/** The counts beside the navigation's entries: pending requests, unread conversations. */
export function useNavCounts(): { friends: number; messages: number } {
  const live = useLive();
  return { friends: live?.requests ?? 0, messages: live?.unreadConversations ?? 0 };
}

/** A navigation entry's count ('3 unread' to a screen reader, after the entry's name). */
export function NavCount({ count, label }: { count: number; label: string }) {
  const text = badgeText(count);
  if (!text) return null;
  return (
    <span className="count-pill nav-count" data-testid={`nav-count-${label}`}>
      <span aria-hidden="true">{text}</span>
      <span className="visually-hidden">
        {`, ${count} ${label === 'friends' ? 'pending' : 'unread'}`}
      </span>
    </span>
  );
}
