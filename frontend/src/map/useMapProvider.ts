import { createContext, useContext, useEffect, useState } from 'react';
import { resolveProvider, type MapProviderChoice } from './provider';
import type { GoogleLoadOptions } from './providerApi';

let pending: Promise<MapProviderChoice> | null = null;

/** The provider for this page, resolved once (build-time key, else `/runtime-config.json`). */
export function resolvePageProvider(): Promise<MapProviderChoice> {
  pending ??= resolveProvider(import.meta.env.VITE_GOOGLE_MAPS_API_KEY);
  return pending;
}

export interface MapSettings {
  /** Forces a provider instead of resolving it (tests, harness). */
  provider?: MapProviderChoice;
  google?: GoogleLoadOptions;
}

/** App-wide map settings; the app uses the defaults, the harness shortens retry delays. */
export const MapSettingsContext = createContext<MapSettings>({});

/** The map provider choice, or null while it is being resolved. */
export function useMapProvider(): MapProviderChoice | null {
  const { provider } = useContext(MapSettingsContext);
  const [choice, setChoice] = useState<MapProviderChoice | null>(provider ?? null);
  useEffect(() => {
    if (provider) {
      setChoice(provider);
      return;
    }
    let live = true;
    void resolvePageProvider().then((c) => live && setChoice(c));
    return () => {
      live = false;
    };
  }, [provider]);
  return choice;
}

export function useGoogleLoadOptions(): GoogleLoadOptions | undefined {
  return useContext(MapSettingsContext).google;
}
