import { MOBILE_MAX_WIDTH } from './layout';

/** The photo index after a step of `delta`, wrapping around in both directions. */
export function wrapIndex(index: number, count: number): number {
  if (count <= 0) return 0;
  return ((index % count) + count) % count;
}

export const nextPhoto = (index: number, count: number) => wrapIndex(index + 1, count);
export const previousPhoto = (index: number, count: number) => wrapIndex(index - 1, count);

export type CarouselLayout =
  { mode: 'mobile'; height: 250 } | { mode: 'desktop'; width: 300 | 350; height: 350 | 400 };

/** Map area (px) from which the larger desktop carousel is used. */
export const LARGE_CAROUSEL_MIN_MAP = { width: 600, height: 720 } as const;

/**
 * Carousel size (spec: 300x350 or 350x400 on desktop, 250 px high on mobile).
 * - Window under 640 px: mobile, full info-window width and 250 px high, with the previous/next
 *   buttons below the photo.
 * - Otherwise the map's own area decides: 350x400 when the map is at least 600 px wide and
 *   720 px high (a desktop map column), else 300x350 (tablets, short windows), so the info
 *   window with its header and journal still fits inside the map.
 */
export function carouselLayout(
  windowWidth: number,
  map: { width: number; height: number },
): CarouselLayout {
  if (windowWidth < MOBILE_MAX_WIDTH) return { mode: 'mobile', height: 250 };
  if (map.width >= LARGE_CAROUSEL_MIN_MAP.width && map.height >= LARGE_CAROUSEL_MIN_MAP.height) {
    return { mode: 'desktop', width: 350, height: 400 };
  }
  return { mode: 'desktop', width: 300, height: 350 };
}
