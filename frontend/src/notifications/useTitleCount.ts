import { useEffect } from 'react';
import { titleWithCount } from './notificationsState';

/** The tab's title with `count` in front while the signed-in layout is shown: `(3) Wayfarer`. */
export function useTitleCount(count: number): void {
  useEffect(() => {
    document.title = titleWithCount(document.title, count);
  }, [count]);
  useEffect(
    () => () => {
      document.title = titleWithCount(document.title, 0);
    },
    [],
  );
}
