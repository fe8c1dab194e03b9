import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { LogoutIcon, SettingsIcon } from './icons';

export const DEFAULT_AVATAR = '/default-avatar.svg';

interface ProfileMenuProps {
  picture: string | null | undefined;
  username: string | null | undefined;
  /** Resolves once logout has failed (on success the app navigates away). */
  onLogout: () => Promise<void>;
  /** Opens the settings screen. */
  onSettings: () => void;
  loggingOut: boolean;
}

/**
 * The profile picture in the top bar; each click toggles a small menu: Settings and Logout.
 * Keyboard: Enter/Space on the picture toggles it and focuses the first item, the arrow keys
 * (and Home/End) move between the items, Escape closes it and returns focus, and a click or
 * focus outside closes it.
 */
export function ProfileMenu({
  picture,
  username,
  onLogout,
  onSettings,
  loggingOut,
}: ProfileMenuProps) {
  const [open, setOpen] = useState(false);
  const [src, setSrc] = useState(picture || DEFAULT_AVATAR);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();

  useEffect(() => setSrc(picture || DEFAULT_AVATAR), [picture]);

  useEffect(() => {
    if (!open) return;
    menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!open) return;
    if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
      return;
    }
    const items = Array.from(
      menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]:not([disabled])') ?? [],
    );
    const at = items.indexOf(document.activeElement as HTMLElement);
    const next: Record<string, number> = {
      ArrowDown: at < 0 || at >= items.length - 1 ? 0 : at + 1,
      ArrowUp: at <= 0 ? items.length - 1 : at - 1,
      Home: 0,
      End: items.length - 1,
    };
    if (event.key in next && items.length > 0) {
      event.preventDefault();
      items[next[event.key]!]?.focus();
    }
  };

  return (
    <div
      className="profile-menu"
      ref={rootRef}
      onKeyDown={onKeyDown}
      onBlur={(event) => {
        if (open && !rootRef.current?.contains(event.relatedTarget as Node | null)) {
          // focus left the widget (Tab away): close without stealing focus back
          if (event.relatedTarget) setOpen(false);
        }
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className="avatar-button"
        aria-label="Open profile menu"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        title={username ?? undefined}
        onClick={() => setOpen((value) => !value)}
      >
        <img
          className="avatar"
          src={src}
          alt=""
          width={36}
          height={36}
          onError={() => {
            if (src !== DEFAULT_AVATAR) setSrc(DEFAULT_AVATAR);
          }}
        />
      </button>
      {open ? (
        <div className="menu" role="menu" id={menuId} aria-label="Profile" ref={menuRef}>
          {username ? (
            <p className="menu-caption" aria-hidden="true">
              Signed in as <strong>{username}</strong>
            </p>
          ) : null}
          <button
            type="button"
            role="menuitem"
            className="menu-item"
            onClick={() => {
              setOpen(false);
              onSettings();
            }}
          >
            <SettingsIcon />
            Settings
          </button>
          <button
            type="button"
            role="menuitem"
            className="menu-item"
            disabled={loggingOut}
            onClick={() => {
              void onLogout().then(() => close(true));
            }}
          >
            <LogoutIcon />
            {loggingOut ? 'Logging out...' : 'Logout'}
          </button>
        </div>
      ) : null}
    </div>
  );
}
