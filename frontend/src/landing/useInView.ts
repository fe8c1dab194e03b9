import { useEffect, useState, useSyncExternalStore, type RefObject } from 'react';

export interface InViewOptions {
  /** How much of the element must show (0: any pixel; 0.5: half of it). */
  threshold?: number;
  /** Grows the viewport for the test, e.g. `'75% 0px'`: "near" rather than "in" view. */
  rootMargin?: string;
  /** Stay true once seen (and stop observing): a reveal, a lazy load. */
  once?: boolean;
}

/**
 * Whether `ref`'s element is in view (an IntersectionObserver of its own). Several hooks may
 * watch the same element with different options. Where IntersectionObserver is missing the
 * element counts as in view, so nothing stays hidden.
 */
export function useInView(
  ref: RefObject<Element | null>,
  { threshold = 0, rootMargin = '0px', once = false }: InViewOptions = {},
): boolean {
  const [inView, setInView] = useState(false);

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    if (typeof IntersectionObserver === 'undefined') {
      setInView(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        const entry = entries[entries.length - 1];
        if (!entry) return;
        // isIntersecting is true for any overlap; with a threshold the ratio decides (a hair
        // of slack: the ratio reported at the crossing can fall just short of it)
        const seen =
          entry.isIntersecting && (threshold === 0 || entry.intersectionRatio >= threshold - 0.01);
        if (once && seen) observer.disconnect();
        if (once && !seen) return;
        setInView(seen);
      },
      { threshold, rootMargin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, threshold, rootMargin, once]);

  return inView;
}

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

function subscribeReducedMotion(onChange: () => void): () => void {
  if (typeof matchMedia === 'undefined') return () => {};
  const query = matchMedia(REDUCED_MOTION);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

const reducedMotionNow = () =>
  typeof matchMedia !== 'undefined' && matchMedia(REDUCED_MOTION).matches;

/** Whether the visitor asked for reduced motion; follows the setting as it changes. */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(subscribeReducedMotion, reducedMotionNow, () => false);
}
