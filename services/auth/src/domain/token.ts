import type { KeyObject } from 'node:crypto';
import { createSigner } from 'fast-jwt';
import { SESSION_ALGORITHM, type SessionClaims } from '@wayfarer/contracts';
import { sessionClaims } from './session';

export interface IssuedSession {
  token: string;
  claims: SessionClaims;
}

export type SessionIssuer = (userId: string, now?: Date) => IssuedSession;

/** Signs session tokens (EdDSA JWTs) with auth's private key; the gateway holds the public one. */
export function createSessionIssuer(privateKey: KeyObject): SessionIssuer {
  if (privateKey.type !== 'private' || privateKey.asymmetricKeyType !== 'ed25519') {
    throw new Error('the session signing key must be an Ed25519 private key');
  }
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  // All claims come from sessionClaims (one clock); fast-jwt keeps a given iat as is.
  const sign = createSigner({ key: pem, algorithm: SESSION_ALGORITHM });
  return (userId, now = new Date()) => {
    const claims = sessionClaims(userId, now);
    return { token: sign({ ...claims }), claims };
  };
}
