import type { AccessFences, Logger, OutboxRelay } from '@wayfarer/service-kit';
import type { Pool } from '@wayfarer/service-kit/pg';
import type { ObjectStore } from '@wayfarer/storage';
import type { SessionIssuer } from '../domain/token';
import type { LoginThrottleStore } from '../store/login-throttle';
import type { RevocationStore } from '../store/revocations';
import type { SessionsStore } from '../store/sessions';
import type { UsersStore } from '../store/users';

/** What auth's use cases work with (built once, by `app.ts`). */
export interface AuthUseCaseDeps {
  pool: Pool;
  users: UsersStore;
  sessions: SessionsStore;
  revocations: RevocationStore;
  /** Profile pictures: the private `avatars` bucket. */
  avatars: ObjectStore;
  /** The closed-account fence: written before a closing commits, read by avatars. */
  fences: AccessFences;
  /** The login throttle's counters (a closed account's go with it). */
  throttle: LoginThrottleStore;
  /** Password checks under the login throttle (login, password change, closing). */
  passwords: PasswordChecker;
  issueSession: SessionIssuer;
  /** Kicked after a commit that enqueued events; optional (the relay also polls). */
  relay?: Pick<OutboxRelay, 'kick'>;
}

/** Where a use case reports what the caller need not see (the request's logger). */
export type Log = Pick<Logger, 'info' | 'warn' | 'error'>;

/** One password to check: who asks (the client's address), for which account, against what. */
export interface PasswordAttempt {
  /** The client's address as the gateway proved it. */
  clientIp: string;
  /** The login email (known account or not: the counters do not tell). */
  email: string;
  /** The account's hash; null for an unknown email (always wrong, in about the same time). */
  hash: string | null;
  password: string;
}

/**
 * Checks a password under the login throttle (`domain/throttle.ts`): true when right. Throws
 * PasswordCheckThrottledError (a blocked address: nothing is checked) and
 * ThrottleUnavailableError (no counters, so no check).
 */
export type PasswordChecker = (attempt: PasswordAttempt, log: Log) => Promise<boolean>;
