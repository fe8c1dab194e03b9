import { useEffect, useState } from 'react';
import type { GoogleLoadOptions } from '../providerApi';
import { loadGoogleMaps } from './loader';

export type GoogleMapsStatus = 'loading' | 'ready' | 'error';

/** Loads Google Maps for a key; 'error' also when Google rejects the key after loading. */
export function useGoogleMaps(apiKey: string, options: GoogleLoadOptions = {}): GoogleMapsStatus {
  const [status, setStatus] = useState<GoogleMapsStatus>(() =>
    window.google?.maps ? 'ready' : 'loading',
  );
  const { retryBaseDelayMs, attemptTimeoutMs } = options;
  useEffect(() => {
    let live = true;
    setStatus(window.google?.maps ? 'ready' : 'loading');
    const previousAuthFailure = window.gm_authFailure;
    window.gm_authFailure = () => {
      console.error('Google Maps rejected the API key');
      if (live) setStatus('error');
    };
    loadGoogleMaps(apiKey, { retryBaseDelayMs, attemptTimeoutMs }).then(
      () => live && setStatus('ready'),
      (err: unknown) => {
        console.error('Error loading Google Maps', err);
        if (live) setStatus('error');
      },
    );
    return () => {
      live = false;
      window.gm_authFailure = previousAuthFailure;
    };
  }, [apiKey, retryBaseDelayMs, attemptTimeoutMs]);
  return status;
}
