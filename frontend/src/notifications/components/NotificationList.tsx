import type { Notification } from '@wayfarer/contracts';
import { Avatar } from '../../friends/components/Avatar';
import type { LiveValue } from '../../live/LiveProvider';
import {
  actorName,
  NOTIFICATION_TEXTS,
  notificationTarget,
  notificationText,
} from '../notificationsState';
import { useNow } from '../../lib/useNow';
import { timeAgo } from '../../lib/timeAgo';

/** The panel's body: header with 'Mark all read', then loading, error, empty or the list. */
export function NotificationList({
  live,
  onOpen,
}: {
  live: LiveValue;
  onOpen: (n: Notification, target: ReturnType<typeof notificationTarget>) => void;
}) {
  const { bell } = live;
  const now = useNow();

  let body;
  if (bell.load === 'loading' && bell.items.length === 0) {
    body = (
      <div className="bell-state" role="status">
        <span className="btn-spinner" aria-hidden="true" />
        Loading notifications…
      </div>
    );
  } else if (bell.load === 'failed' && bell.items.length === 0) {
    body = (
      <div className="bell-state bell-state--error">
        <p role="alert">{NOTIFICATION_TEXTS.loadFailed}</p>
        <button type="button" className="btn btn-ghost btn-sm" onClick={live.loadNotifications}>
          Try again
        </button>
      </div>
    );
  } else if (bell.items.length === 0) {
    body = <p className="bell-state">{NOTIFICATION_TEXTS.empty}</p>;
  } else {
    body = (
      <ul className="bell-list" aria-label="Recent notifications">
        {bell.items.map((n) => (
          <li key={n._id}>
            <button
              type="button"
              className={`bell-item${n.read ? '' : ' is-unread'}`}
              data-kind={n.kind}
              onClick={() => onOpen(n, notificationTarget(n))}
            >
              <span className="avatar-slot" aria-hidden="true">
                <Avatar src={n.actor.picture} name={actorName(n)} size={36} />
              </span>
              <span className="bell-item-text">
                <span className="bell-item-line">
                  <strong>{actorName(n)}</strong> {notificationText(n)}
                </span>
                <time className="bell-item-time" dateTime={n.createdAt}>
                  {timeAgo(n.createdAt, now)}
                </time>
              </span>
              {n.read ? null : (
                <span className="bell-dot">
                  <span className="visually-hidden">Unread</span>
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <>
      <div className="bell-head">
        <h2 className="bell-title">{NOTIFICATION_TEXTS.title}</h2>
        <button
          type="button"
          className="btn-link bell-mark-all"
          disabled={bell.unread === 0}
          onClick={live.markAllRead}
        >
          {NOTIFICATION_TEXTS.markAll}
        </button>
      </div>
      {bell.markError ? (
        <p className="bell-error" role="alert">
          {NOTIFICATION_TEXTS.markFailed}
        </p>
      ) : null}
      <div className="bell-body">
        {body}
        {bell.nextCursor !== null && bell.items.length > 0 ? (
          <div className="bell-more">
            {bell.moreError ? (
              <p className="bell-error" role="alert">
                {NOTIFICATION_TEXTS.moreFailed}
              </p>
            ) : null}
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              disabled={bell.loadingMore}
              onClick={live.loadMoreNotifications}
            >
              {bell.loadingMore ? 'Loading…' : NOTIFICATION_TEXTS.loadMore}
            </button>
          </div>
        ) : null}
      </div>
    </>
  );
}
