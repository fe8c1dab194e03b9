import { PIN_SIZE } from './constants';
import type { MarkerKind } from './types';

/**
 * Pin colours: the app's accent for the user's own destinations, a teal for friends', a
 * violet for bucket list places; a shared trip's (the public page) are the accent too. All read
 * well on the dark basemap.
 */
export const PIN_COLORS: Record<MarkerKind, string> = {
  own: '#f6b54a',
  friend: '#4fd1c5',
  bucket: '#c4a1ff',
  shared: '#f6b54a',
};

/** What each pin kind is called in a pin's accessible name. */
export const PIN_KIND_LABEL: Record<MarkerKind, string> = {
  own: 'Destination',
  friend: "Friend's destination",
  bucket: 'Bucket list place',
  shared: 'Destination',
};

/** A 30x30 map pin (tip at the bottom centre) as SVG markup, for HTML markers and icons. */
export function pinSvg(kind: MarkerKind): string {
  const fill = PIN_COLORS[kind];
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PIN_SIZE}" height="${PIN_SIZE}" viewBox="0 0 30 30" aria-hidden="true" focusable="false">` +
    `<path d="M15 29c-.5 0-.9-.25-1.2-.7C10.3 23 5.5 18.1 5.5 11.9 5.5 6.4 9.8 2 15 2s9.5 4.4 9.5 9.9c0 6.2-4.8 11.1-8.3 16.4-.3.45-.7.7-1.2.7Z" fill="${fill}" stroke="#0a0f1e" stroke-width="1.6"/>` +
    `<circle cx="15" cy="11.8" r="3.7" fill="#0a0f1e"/>` +
    `</svg>`
  );
}

/** The pin as a data URL (Google marker icons). */
export function pinDataUrl(kind: MarkerKind): string {
  return `data:image/svg+xml;charset=UTF-8,${encodeURIComponent(pinSvg(kind))}`;
}
