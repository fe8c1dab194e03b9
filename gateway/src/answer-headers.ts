/**
 * The headers the gateway adds to every answer (`app.ts`'s onSend, and the hot path's own
 * answers, `hot-path.ts`): personal answers (everything under /api) are never stored by a
 * shared or browser cache unless the service chose its own policy (photos, avatars), no MIME
 * sniffing, no referrer off-site, no framing, and HTML gets the Content-Security-Policy.
 * `set` writes one header on `target` (a Fastify reply, or a plain header object).
 */
export function addAnswerHeaders<T>(
  target: T,
  set: (target: T, name: string, value: string) => void,
  answer: { api: boolean; hasCacheControl: boolean; contentType: unknown; csp: string },
): void {
  if (answer.api && !answer.hasCacheControl) set(target, 'cache-control', 'no-store');
  set(target, 'x-content-type-options', 'nosniff');
  set(target, 'referrer-policy', 'same-origin');
  set(target, 'x-frame-options', 'DENY');
  if (String(answer.contentType ?? '').startsWith('text/html')) {
    set(target, 'content-security-policy', answer.csp);
  }
}
