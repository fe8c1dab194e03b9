import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { BellIcon } from '../../components/icons';
import type { LiveValue } from '../../live/LiveProvider';
import { badgeText, NOTIFICATION_TEXTS } from '../notificationsState';
import { NotificationList } from './NotificationList';

/**
 * The bell in the top bar: the unread count on it; a click (or Enter/Space) opens the
 * panel of recent notifications and reads them again, focus moving into it. Escape closes it and
 * gives focus back to the bell, as does a click outside or Tab out of it (without taking focus
 * back). Each notification opens what it is about, marked read; 'Mark all read' marks them all.
 */
export function NotificationBell({ live }: { live: LiveValue }) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const navigate = useNavigate();
  const { bell, loadNotifications } = live;
  const badge = badgeText(bell.unread);

  useEffect(() => {
    if (!open) return;
    loadNotifications();
    panelRef.current?.focus();
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open, loadNotifications]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (open && event.key === 'Escape') {
      event.preventDefault();
      setOpen(false);
      buttonRef.current?.focus();
    }
  };

  return (
    <div
      className="bell"
      data-live={live.connected ? 'connected' : 'connecting'}
      ref={rootRef}
      onKeyDown={onKeyDown}
      onBlur={(event) => {
        // focus left the widget (Tab away): close without taking focus back
        if (open && event.relatedTarget && !rootRef.current?.contains(event.relatedTarget)) {
          setOpen(false);
        }
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className="bell-button"
        aria-label={bell.unread > 0 ? `Notifications, ${bell.unread} unread` : 'Notifications'}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((value) => !value)}
      >
        <BellIcon />
        {badge ? (
          <span className="count-pill bell-count" aria-hidden="true" data-testid="bell-count">
            {badge}
          </span>
        ) : null}
      </button>
      {open ? (
        <div
          className="bell-panel"
          id={panelId}
          role="dialog"
          aria-label={NOTIFICATION_TEXTS.title}
          tabIndex={-1}
          ref={panelRef}
        >
          <NotificationList
            live={live}
            onOpen={(n, target) => {
              setOpen(false);
              live.markRead([n._id]);
              navigate(target.to, target.state === undefined ? {} : { state: target.state });
            }}
          />
        </div>
      ) : null}
    </div>
  );
}
