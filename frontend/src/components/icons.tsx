/** Small line icons (decorative; always aria-hidden). */

const common = {
  width: 22,
  height: 22,
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.8,
  strokeLinecap: 'round' as const,
  strokeLinejoin: 'round' as const,
  'aria-hidden': true,
  focusable: false,
};

export function TripsIcon() {
  return (
    <svg {...common}>
      <path d="M3 6.5 9 4l6 2.5L21 4v13.5L15 20l-6-2.5L3 20Z" />
      <path d="M9 4v13.5M15 6.5V20" />
    </svg>
  );
}

export function BucketIcon() {
  return (
    <svg {...common}>
      <path d="M12 21s-6.5-5.6-6.5-11A6.5 6.5 0 0 1 18.5 10c0 5.4-6.5 11-6.5 11Z" />
      <path d="m9.5 10 1.8 1.8 3.2-3.3" />
    </svg>
  );
}

export function FriendsIcon() {
  return (
    <svg {...common}>
      <circle cx="9" cy="8.5" r="3.2" />
      <path d="M3.5 19c.7-3.2 2.9-5 5.5-5s4.8 1.8 5.5 5" />
      <circle cx="16.8" cy="9.5" r="2.5" />
      <path d="M16.2 14.1c2.2.1 3.8 1.6 4.3 4.4" />
    </svg>
  );
}

export function ChatIcon() {
  return (
    <svg {...common}>
      <path d="M4 5.5h16v10H9l-5 4Z" />
      <path d="M8 10h8" />
    </svg>
  );
}

export function PlusIcon() {
  return (
    <svg {...common}>
      <circle cx="12" cy="12" r="8.5" />
      <path d="M12 8v8M8 12h8" />
    </svg>
  );
}

export function PinIcon() {
  return (
    <svg {...common}>
      <path d="M12 21s-6.5-5.6-6.5-11A6.5 6.5 0 0 1 18.5 10c0 5.4-6.5 11-6.5 11Z" />
      <circle cx="12" cy="10" r="2.3" />
    </svg>
  );
}

export function CameraIcon() {
  return (
    <svg {...common}>
      <path d="M4 8h3l1.6-2.5h6.8L17 8h3v11H4Z" />
      <circle cx="12" cy="13.2" r="3.3" />
    </svg>
  );
}

export function SearchIcon() {
  return (
    <svg {...common}>
      <circle cx="11" cy="11" r="6" />
      <path d="m20 20-4.6-4.6" />
    </svg>
  );
}

export function EditIcon() {
  return (
    <svg {...common} width={18} height={18}>
      <path d="M4 20h4L19.3 8.7a2.1 2.1 0 0 0-3-3L5 17Z" />
      <path d="m14.5 7.5 2.9 2.9" />
    </svg>
  );
}

export function CheckIcon() {
  return (
    <svg {...common} width={18} height={18}>
      <path d="m5 12.5 4.5 4.5L19 7.5" />
    </svg>
  );
}

export function TrashIcon() {
  return (
    <svg {...common} width={18} height={18}>
      <path d="M4.5 7h15M10 11v6M14 11v6" />
      <path d="M6.5 7 7.4 19a1.5 1.5 0 0 0 1.5 1.4h6.2a1.5 1.5 0 0 0 1.5-1.4L17.5 7" />
      <path d="M9.5 7V4.8c0-.4.3-.8.8-.8h3.4c.5 0 .8.4.8.8V7" />
    </svg>
  );
}

export function LockIcon() {
  return (
    <svg {...common} width={16} height={16}>
      <rect x="5" y="10.5" width="14" height="10" rx="2" />
      <path d="M8.5 10.5V7.5a3.5 3.5 0 0 1 7 0v3" />
    </svg>
  );
}

export function LinkIcon() {
  return (
    <svg {...common} width={18} height={18}>
      <path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1.2 1.2" />
      <path d="M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1.2-1.2" />
    </svg>
  );
}

export function CalendarIcon() {
  return (
    <svg {...common} width={16} height={16}>
      <rect x="4" y="5.5" width="16" height="14.5" rx="2" />
      <path d="M4 10h16M8.5 3.5v4M15.5 3.5v4" />
    </svg>
  );
}

export function ArrowLeftIcon() {
  return (
    <svg {...common} width={18} height={18}>
      <path d="M19 12H5.5M11 6l-6 6 6 6" />
    </svg>
  );
}

export function CloseSmallIcon() {
  return (
    <svg {...common} width={16} height={16}>
      <path d="M7 7l10 10M17 7 7 17" />
    </svg>
  );
}

export function BellIcon() {
  return (
    <svg {...common}>
      <path d="M6 16.5V11a6 6 0 0 1 12 0v5.5l1.5 1.5h-15Z" />
      <path d="M10 20.5a2.2 2.2 0 0 0 4 0" />
    </svg>
  );
}

export function FeedIcon() {
  return (
    <svg {...common}>
      <rect x="4" y="4" width="16" height="16" rx="2.5" />
      <path d="M8 9h8M8 12.5h8M8 16h5" />
    </svg>
  );
}

export function AtlasIcon() {
  return (
    <svg {...common}>
      <circle cx="12" cy="12" r="9" />
      <path d="M3 12h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3Z" />
    </svg>
  );
}

export function DownloadIcon() {
  return (
    <svg {...common} width={16} height={16}>
      <path d="M12 4v11M7 10.5l5 5 5-5M5 19.5h14" />
    </svg>
  );
}

/** The trips list's Import (an arrow into the tray, the Download icon's opposite). */
export function UploadIcon() {
  return (
    <svg {...common} width={16} height={16}>
      <path d="M12 15.5v-11M7 9l5-5 5 5M5 19.5h14" />
    </svg>
  );
}

/** The profile menu's Settings (18 px, beside the item's text). */
export function SettingsIcon() {
  return (
    <svg {...common} width={18} height={18}>
      <circle cx="12" cy="12" r="3" />
      <path d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z" />
    </svg>
  );
}

/** The profile menu's Log out (18 px, beside the item's text). */
export function LogoutIcon() {
  return (
    <svg {...common} width={18} height={18}>
      <path d="M14 4h5v16h-5M10 8l-4 4 4 4M6 12h10" />
    </svg>
  );
}
