import { useEffect, useState } from 'react';

/** The clock times are shown against ('5 min'), ticking each minute while shown. */
export function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const tick = window.setInterval(() => setNow(Date.now()), 60_000);
    return () => window.clearInterval(tick);
  }, []);
  return now;
}
