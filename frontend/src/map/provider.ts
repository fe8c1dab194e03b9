/**
 * Which map provider runs: Google Maps when an API key is configured, else the keyless map.
 * The key comes from the build (`VITE_GOOGLE_MAPS_API_KEY`) or, at run time, from the gateway's
 * `GET /runtime-config.json` (`{ "googleMapsApiKey": string | null }`). Nothing in the repo or in
 * a default bundle holds a key.
 */
export type MapProviderChoice = { kind: 'keyless' } | { kind: 'google'; apiKey: string };

function usableKey(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const key = value.trim();
  return key === '' ? null : key;
}

/** The build-time key wins (no request needed); then the run-time one; else keyless. */
export function chooseProvider(buildKey: unknown, runtimeKey: unknown): MapProviderChoice {
  const key = usableKey(buildKey) ?? usableKey(runtimeKey);
  return key ? { kind: 'google', apiKey: key } : { kind: 'keyless' };
}

/** The key in a `/runtime-config.json` body, or null for anything else. */
export function keyFromRuntimeConfig(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  return usableKey((body as Record<string, unknown>).googleMapsApiKey);
}

export const RUNTIME_CONFIG_PATH = '/runtime-config.json';

/** Reads the run-time key; a 404, a failed fetch or a non-JSON answer all mean "no key". */
export async function fetchRuntimeKey(fetchImpl: typeof fetch = fetch): Promise<string | null> {
  try {
    const res = await fetchImpl(RUNTIME_CONFIG_PATH, {
      headers: { Accept: 'application/json' },
      cache: 'no-store',
      credentials: 'same-origin',
    });
    if (!res.ok) return null;
    const type = res.headers.get('content-type') ?? '';
    if (!type.includes('json')) return null;
    return keyFromRuntimeConfig(await res.json());
  } catch {
    return null;
  }
}

/** The choice for this page, asking the gateway only when the build has no key. */
export async function resolveProvider(
  buildKey: unknown,
  fetchImpl: typeof fetch = fetch,
): Promise<MapProviderChoice> {
  if (usableKey(buildKey)) return chooseProvider(buildKey, null);
  return chooseProvider(null, await fetchRuntimeKey(fetchImpl));
}
