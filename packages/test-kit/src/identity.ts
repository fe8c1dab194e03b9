import { IdentityHeaders } from '@wayfarer/contracts';
import { identityProofHeaders, proofPath, type ProvenIdentity } from '@wayfarer/service-kit';

/**
 * The identity proof secret of tests: `testServiceEnv` sets it as IDENTITY_PROOF_SECRET, and
 * `gatewayHeaders` / `throughGateway` sign with it.
 */
export const TEST_IDENTITY_PROOF_SECRET = 'wayfarer-test-identity-proof-secret-0123456789';

/** Who a test request is from; absent fields as on a public route (no session, 127.0.0.1). */
export interface TestIdentity {
  userId?: string | null;
  sessionId?: string | null;
  sessionExpires?: number | null;
  clientIp?: string;
}

/**
 * The headers the gateway adds to `method url` for this identity (identity headers, client
 * address, and a proof bound to the method and path), signed with the test secret (or
 * `secret`, e.g. the e2e stack's).
 */
export function gatewayHeaders(
  method: string,
  url: string,
  identity: TestIdentity = {},
  secret: Buffer | string = TEST_IDENTITY_PROOF_SECRET,
): Record<string, string> {
  const proven: ProvenIdentity = {
    userId: identity.userId ?? null,
    sessionId: identity.sessionId ?? null,
    sessionExpires: identity.sessionExpires ?? null,
    clientIp: identity.clientIp ?? '127.0.0.1',
  };
  return identityProofHeaders(
    proven,
    { method, path: proofPath(url) },
    typeof secret === 'string' ? Buffer.from(secret) : secret,
  );
}

type HeaderMap = Record<string, string | string[] | number | boolean | undefined>;
interface InjectRequest {
  method?: string;
  url?: string;
  path?: string;
  headers?: HeaderMap;
  [option: string]: unknown;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** `opts` with the headers the gateway would add for the identity the test put in them. */
function signed(opts: InjectRequest | string): InjectRequest {
  const request: InjectRequest = typeof opts === 'string' ? { url: opts } : { ...opts };
  const headers: HeaderMap = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    headers[name.toLowerCase()] = value;
  }
  if (headers[IdentityHeaders.proof] !== undefined) return request; // a test of forged proofs
  const method = request.method ?? 'GET';
  const url = request.url ?? request.path ?? '/';
  const exp = text(headers[IdentityHeaders.sessionExpires]);
  const added = gatewayHeaders(method, url, {
    userId: text(headers[IdentityHeaders.userId]) ?? null,
    sessionId: text(headers[IdentityHeaders.sessionId]) ?? null,
    sessionExpires: exp === undefined ? null : Number(exp),
    clientIp: text(headers[IdentityHeaders.clientIp]) ?? text(request.remoteAddress),
  });
  return { ...request, headers: { ...headers, ...added } };
}

/**
 * A service's app as the gateway calls it: each `inject` gets the headers the gateway adds,
 * for the identity the test put in the request (`x-user-id`, `x-session-id`, `x-session-exp`
 * as a harness's `as(userId)` sets them; the client address from `x-client-ip`, else inject's
 * `remoteAddress` as the gateway would see it, else 127.0.0.1), with a proof signed with the test secret and bound to the request's method and
 * path. A request that already carries a proof goes as it is. Everything else is the app.
 * Without this wrapper, the app refuses any request without a proof (that is tested too).
 */
export function throughGateway<T extends object>(app: T): T {
  return new Proxy(app, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (prop === 'inject' && typeof value === 'function') {
        return (opts: InjectRequest | string) =>
          (value as (o: InjectRequest) => unknown).call(target, signed(opts));
      }
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
}
