import type { SharedTrip } from '@wayfarer/contracts';

/**
 * The head of the public page of a share link (`/s/{token}`), filled so a pasted link
 * previews well (Open Graph): pure text work on the SPA's `index.html`, no I/O. Every value put
 * in the HTML is escaped (`escapeHtml`): a trip's name is the owner's text.
 */

/** What the page's head says about the link. */
export interface SharePageHead {
  /** The trip's preview, or null (a link that no longer works, or trips could not be asked). */
  trip: SharedTrip | null;
  /**
   * The gateway's public origin (`https://host`, PUBLIC_URL), for absolute URLs; null: no
   * `og:url` nor `og:image`.
   */
  origin: string | null;
  /** The page's own path (`/s/{token}`), for `og:url`. */
  pagePath: string;
}

const SITE_NAME = 'Wayfarer';

/** Destination names in the description before "and N more". */
const DESCRIPTION_NAMES_MAX = 8;

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe as HTML content and as a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

const dayFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A trip date (`YYYY-MM-DD` or ISO) as `1 May 2026`; anything else as it is. */
function day(date: string): string {
  const at = new Date(date);
  return Number.isNaN(at.getTime()) ? date : dayFormat.format(at);
}

/** `1 May 2026 – 9 May 2026 · Rome, Lima, Cusco` (at most 8 names, then "and N more"). */
export function shareDescription(trip: SharedTrip): string {
  const dates =
    trip.startDate === trip.endDate
      ? day(trip.startDate)
      : `${day(trip.startDate)} – ${day(trip.endDate)}`;
  const names = trip.destinations.map((d) => d.name);
  const shown = names.slice(0, DESCRIPTION_NAMES_MAX).join(', ');
  const more = names.length - DESCRIPTION_NAMES_MAX;
  const places = more > 0 ? `${shown} and ${more} more` : shown;
  return places ? `${dates} · ${places}` : dates;
}

/** The absolute URL of the trip's first photo (its first destination that has one), or null. */
export function firstPhotoUrl(trip: SharedTrip, origin: string | null): string | null {
  const photo = trip.destinations.find((d) => d.photos.length > 0)?.photos[0];
  return photo === undefined || origin === null ? null : new URL(photo, origin).href;
}

/** The page's `<title>` text. */
export function shareTitle(trip: SharedTrip | null): string {
  return trip ? `${trip.name} · ${SITE_NAME}` : SITE_NAME;
}

/**
 * The tags added to the head: `robots` `noindex` unless the owner allowed indexing (always for
 * a link that does not work), and for a live link the Open Graph tags (title, description,
 * type, URL, first photo) and the page's description.
 */
export function shareHeadTags(head: SharePageHead): string[] {
  const meta = (attr: 'name' | 'property', key: string, value: string) =>
    `<meta ${attr}="${key}" content="${escapeHtml(value)}" />`;
  const { trip } = head;
  const tags: string[] = [];
  if (!trip?.allowIndexing) tags.push(meta('name', 'robots', 'noindex'));
  if (!trip) return tags;
  const description = shareDescription(trip);
  const image = firstPhotoUrl(trip, head.origin);
  tags.push(
    meta('name', 'description', description),
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', SITE_NAME),
    meta('property', 'og:title', trip.name),
    meta('property', 'og:description', description),
  );
  if (head.origin) tags.push(meta('property', 'og:url', new URL(head.pagePath, head.origin).href));
  if (image) tags.push(meta('property', 'og:image', image));
  tags.push(meta('name', 'twitter:card', image ? 'summary_large_image' : 'summary'));
  return tags;
}

/**
 * The SPA's `index.html` with the share page's head: its `<title>` replaced, its own
 * description dropped when the link has one, and the tags added at the end of the head (at the
 * start of the document when it has no `</head>`).
 */
export function renderSharePage(indexHtml: string, head: SharePageHead): string {
  const tags = shareHeadTags(head);
  let html = indexHtml.replace(
    /<title>[\s\S]*?<\/title>/i,
    () => `<title>${escapeHtml(shareTitle(head.trip))}</title>`,
  );
  if (head.trip) html = html.replace(/<meta\s+name="description"[^>]*>\s*/i, '');
  const block = tags.join('\n    ');
  const end = html.search(/<\/head>/i);
  if (end >= 0) return `${html.slice(0, end)}  ${block}\n  ${html.slice(end)}`;
  const doctype = /^\s*<!doctype html>/i.exec(html);
  const at = doctype ? doctype[0].length : 0;
  return `${html.slice(0, at)}${block}${html.slice(at)}`;
}
