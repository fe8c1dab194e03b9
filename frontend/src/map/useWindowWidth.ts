import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

const getWidth = () => window.innerWidth;
const getServerWidth = () => 1440;

/** The current window width, re-rendering on resize. */
export function useWindowWidth(): number {
  return useSyncExternalStore(subscribe, getWidth, getServerWidth);
}
