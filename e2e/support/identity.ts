import { inject } from 'vitest';
import { gatewayHeaders, type TestIdentity } from '@wayfarer/test-kit';
import { E2E_PORTS } from './stack-setup';

export type ServiceName = Exclude<keyof typeof E2E_PORTS, 'gateway'>;

/** A URL straight on a service's port of the e2e stack, bypassing the gateway. */
export const serviceUrl = (service: ServiceName, path: string): string =>
  `http://127.0.0.1:${E2E_PORTS[service]}${path}`;

/**
 * The headers the e2e stack's gateway adds to `method url` for `identity`, signed with the
 * stack's identity proof secret: for a test that must call a service's port as the gateway does.
 */
export function asGateway(
  method: string,
  url: string,
  identity: TestIdentity = {},
): Record<string, string> {
  return gatewayHeaders(method, url, identity, inject('identityProofSecret'));
}
