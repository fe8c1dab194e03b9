import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';

export const DEFAULT_AVATAR = '/default-avatar.svg';

interface ProfileMenuProps {
  picture: string | null | undefined;
  username: string | null | undefined;
  /** Resolves once logout has failed (on success the app navigates away). */
  onLogout: () => Promise<void>;
  loggingOut: boolean;
}

/**
 * The profile picture in the top bar; each click toggles a small menu with one action, Logout.
 * Keyboard: Enter/Space on the picture toggles it, Escape closes it and returns focus, and a
 * click or focus outside closes it.
 */
export function ProfileMenu({ picture, username, onLogout, loggingOut }: ProfileMenuProps) {
  const [open, setOpen] = useState(false);
  const [src, setSrc] = useState(picture || DEFAULT_AVATAR);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const itemRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  useEffect(() => setSrc(picture || DEFAULT_AVATAR), [picture]);

  useEffect(() => {
    if (!open) return;
    itemRef.current?.focus();
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
    if (event.key === 'Escape' && open) {
      event.preventDefault();
      close(true);
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
        <div className="menu" role="menu" id={menuId} aria-label="Profile">
          {username ? (
            <p className="menu-caption" aria-hidden="true">
              Signed in as <strong>{username}</strong>
            </p>
          ) : null}
          <button
            ref={itemRef}
            type="button"
            role="menuitem"
            className="menu-item"
            disabled={loggingOut}
            onClick={() => {
              void onLogout().then(() => close(true));
            }}
          >
            <svg
              width="18"
              height="18"
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinecap="round"
              strokeLinejoin="round"
              aria-hidden="true"
            >
              <path d="M14 4h5v16h-5M10 8l-4 4 4 4M6 12h10" />
            </svg>
            {loggingOut ? 'Logging out...' : 'Logout'}
          </button>
        </div>
      ) : null}
    </div>
  );
}
