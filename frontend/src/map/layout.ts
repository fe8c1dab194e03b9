/** Breakpoints shared by the map and the protected layout. */
export const MOBILE_MAX_WIDTH = 640;
export const TABLET_MAX_WIDTH = 1024;

/**
 * Height of the map for a window width:
 * under 640 px it is 60vh, under 1024 px it is 70vh, otherwise the full height of its column.
 */
export function mapHeightFor(width: number): '60vh' | '70vh' | '100%' {
  if (width < MOBILE_MAX_WIDTH) return '60vh';
  if (width < TABLET_MAX_WIDTH) return '70vh';
  return '100%';
}
