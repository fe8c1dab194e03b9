import { useEffect, useState } from 'react';
import { fetchSharedTrip, type SharedTrip } from './api';

export type SharedLoad =
  | { status: 'loading' }
  | { status: 'ready'; trip: SharedTrip }
  /** Unknown, revoked or expired (404). */
  | { status: 'gone' }
  | { status: 'failed' };

/** The trip of a link (`GET /api/shared/{token}`), loaded again when `attempt` changes. */
export function useSharedTrip(token: string, attempt: number): SharedLoad {
  const [load, setLoad] = useState<SharedLoad>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    setLoad({ status: 'loading' });
    fetchSharedTrip(token, controller.signal).then(
      (trip) => setLoad(trip ? { status: 'ready', trip } : { status: 'gone' }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Failed to load the shared trip', error);
        setLoad({ status: 'failed' });
      },
    );
    return () => controller.abort();
  }, [token, attempt]);
  return load;
}
