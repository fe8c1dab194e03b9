/**
 * Login throttling policy: failed logins are counted per email and per client IP in fixed
 * windows. Once a counter has reached its limit, further attempts are refused until the
 * window ends, whether the password would be right or not. A successful login resets the
 * email counter (not the IP counter, so one good account cannot launder a spraying IP).
 */
export const LOGIN_THROTTLE = {
  windowSeconds: 15 * 60,
  maxFailuresPerEmail: 10,
  maxFailuresPerIp: 50,
} as const;

export interface ThrottlePolicy {
  windowSeconds: number;
  maxFailuresPerEmail: number;
  maxFailuresPerIp: number;
}

/** The counters as read from the store: failures in the current window and seconds left. */
export interface ThrottleCounters {
  emailFailures: number;
  emailTtlSeconds: number;
  ipFailures: number;
  ipTtlSeconds: number;
}

export type ThrottleDecision =
  { allowed: true } | { allowed: false; retryAfterSeconds: number; scope: 'email' | 'ip' };

export function throttleDecision(
  counters: ThrottleCounters,
  policy: ThrottlePolicy = LOGIN_THROTTLE,
): ThrottleDecision {
  const blocked: { scope: 'email' | 'ip'; ttl: number }[] = [];
  if (counters.emailFailures >= policy.maxFailuresPerEmail) {
    blocked.push({ scope: 'email', ttl: counters.emailTtlSeconds });
  }
  if (counters.ipFailures >= policy.maxFailuresPerIp) {
    blocked.push({ scope: 'ip', ttl: counters.ipTtlSeconds });
  }
  if (blocked.length === 0) return { allowed: true };
  // Wait for the longest block; a counter without a TTL (should not happen) counts as a full window.
  const worst = blocked
    .map((b) => ({ ...b, ttl: b.ttl > 0 ? b.ttl : policy.windowSeconds }))
    .reduce((a, b) => (b.ttl > a.ttl ? b : a));
  return {
    allowed: false,
    retryAfterSeconds: Math.max(1, Math.ceil(worst.ttl)),
    scope: worst.scope,
  };
}

export function throttleMessage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const wait =
    retryAfterSeconds < 60
      ? `${retryAfterSeconds} seconds`
      : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `Too many failed login attempts. Please wait ${wait} and try again.`;
}
