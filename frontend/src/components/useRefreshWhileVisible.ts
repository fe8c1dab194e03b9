import { useEffect } from 'react';

/**
 * Calls `refresh` now, every `intervalMs` while the page is visible, and whenever the window
 * regains focus or the page becomes visible again: how a screen picks up what changed elsewhere
 * (a trip ticking a place off, a friend unfriending) without a reload.
 */
export function useRefreshWhileVisible(refresh: () => void, intervalMs: number): void {
  useEffect(() => {
    refresh();
    const whenVisible = () => {
      if (document.visibilityState === 'visible') refresh();
    };
    const tick = window.setInterval(whenVisible, intervalMs);
    window.addEventListener('focus', whenVisible);
    document.addEventListener('visibilitychange', whenVisible);
    return () => {
      window.clearInterval(tick);
      window.removeEventListener('focus', whenVisible);
      document.removeEventListener('visibilitychange', whenVisible);
    };
  }, [refresh, intervalMs]);
}
