/**
 * The Content-Security-Policy of the app's pages. Scripts, styles and connections stay on our
 * own origin; MapLibre runs its worker from a blob. Google's hosts are allowed only when a Maps
 * key is configured (the Google provider can run at all).
 */
export function contentSecurityPolicy(withGoogleMaps: boolean): string {
  const google = (...hosts: string[]) => (withGoogleMaps ? hosts : []);
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...google('https://maps.googleapis.com', 'https://maps.gstatic.com')],
    'style-src': ["'self'", "'unsafe-inline'", ...google('https://fonts.googleapis.com')],
    'img-src': [
      "'self'",
      'data:',
      'blob:',
      ...google('https://*.googleapis.com', 'https://*.gstatic.com', 'https://*.google.com'),
    ],
    'font-src': ["'self'", 'data:', ...google('https://fonts.gstatic.com')],
    'connect-src': ["'self'", ...google('https://*.googleapis.com', 'https://*.gstatic.com')],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}
