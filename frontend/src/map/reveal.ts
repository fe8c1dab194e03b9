/**
 * Under 1024 px the map sits below the page's list: after choosing a place in the list, bring
 * the map into view to see the zoom (smoothly unless the user prefers reduced motion).
 */
export function revealMapColumn(): void {
  const map = document.querySelector('.map-column');
  if (map && map.getBoundingClientRect().top > window.innerHeight * 0.6) {
    const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    map.scrollIntoView({ behavior: smooth ? 'smooth' : 'auto', block: 'start' });
  }
}
