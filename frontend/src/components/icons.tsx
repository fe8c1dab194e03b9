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
