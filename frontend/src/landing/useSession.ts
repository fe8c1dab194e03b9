import { useEffect, useState } from 'react';
import { apiFetch } from '../api/client';

export interface LandingSession {
  /** True once the gateway confirmed a valid session (false until then, and for visitors). */
  signedIn: boolean;
  username?: string;
}

/**
 * Whether the visitor is signed in, for the landing page's way into the app. The page paints
 * for a visitor first; the session check (`/api/userDetails`, which the gateway answers only
 * with a valid session cookie, 401 otherwise) runs after it and only swaps the top bar's and
 * the hero's links. Never redirects: a signed-in traveller may well want to read the landing.
 */
export function useSession(): LandingSession {
  const [session, setSession] = useState<LandingSession>({ signedIn: false });

  useEffect(() => {
    const controller = new AbortController();
    apiFetch<{ username?: string }>('/api/userDetails', { signal: controller.signal }).then(
      (details) => setSession({ signedIn: true, username: details?.username }),
      () => {
        // a visitor (401), or the gateway is unreachable: the visitor's landing stays
      },
    );
    return () => controller.abort();
  }, []);

  return session;
}
