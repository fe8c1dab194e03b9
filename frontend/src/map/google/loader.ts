import { MAPS_LOAD_RETRIES, MAPS_RETRY_BASE_DELAY_MS } from '../constants';
import type { GoogleLoadOptions } from '../providerApi';
import { withRetries } from '../retry';

const CALLBACK = '__wayfarerGoogleMapsReady';
const SCRIPT_ID = 'wayfarer-google-maps';
const DEFAULT_ATTEMPT_TIMEOUT_MS = 15_000;

declare global {
  interface Window {
    [CALLBACK]?: () => void;
    gm_authFailure?: () => void;
  }
}

/** The Maps JavaScript API URL with the places library (spec: "loaded with its places library"). */
export function googleMapsScriptUrl(apiKey: string): string {
  const params = new URLSearchParams({
    key: apiKey,
    libraries: 'places',
    v: 'weekly',
    callback: CALLBACK,
  });
  return `https://maps.googleapis.com/maps/api/js?${params.toString()}`;
}

function loadOnce(apiKey: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    document.getElementById(SCRIPT_ID)?.remove();
    const script = document.createElement('script');
    script.id = SCRIPT_ID;
    script.src = googleMapsScriptUrl(apiKey);
    script.async = true;
    const timer = window.setTimeout(() => fail(new Error('Google Maps timed out')), timeoutMs);
    const done = () => {
      window.clearTimeout(timer);
      delete window[CALLBACK];
    };
    function fail(err: Error) {
      done();
      script.remove();
      reject(err);
    }
    window[CALLBACK] = () => {
      done();
      if (window.google?.maps) resolve();
      else fail(new Error('Google Maps loaded without google.maps'));
    };
    script.onerror = () => fail(new Error('Google Maps script failed to load'));
    document.head.appendChild(script);
  });
}

let pending: { key: string; promise: Promise<void> } | null = null;

/**
 * Loads the Maps JavaScript API once per page, retried up to 3 times with growing delays
 * (1 s, 2 s, 4 s by default). A failed load is forgotten, so a later mount tries again.
 */
export function loadGoogleMaps(apiKey: string, options: GoogleLoadOptions = {}): Promise<void> {
  if (window.google?.maps && pending?.key === apiKey) return pending.promise;
  if (pending?.key === apiKey) return pending.promise;
  const promise = withRetries(
    () => loadOnce(apiKey, options.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS),
    {
      retries: MAPS_LOAD_RETRIES,
      baseDelayMs: options.retryBaseDelayMs ?? MAPS_RETRY_BASE_DELAY_MS,
      onRetry: (attempt, delay) =>
        console.warn(`Google Maps failed to load (attempt ${attempt}); retrying in ${delay} ms`),
    },
  ).catch((err: unknown) => {
    if (pending?.promise === promise) pending = null;
    throw err;
  });
  pending = { key: apiKey, promise };
  return promise;
}
