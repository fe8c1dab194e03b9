/**
 * Login throttling policy, after OWASP's Authentication Cheat Sheet: guessing is throttled
 * without letting a stranger lock the owner out of her account.
 *
 * Failed logins are counted in fixed windows along three scopes:
 * - **pair** (client address, account): a strict limit. Once reached, that address gets `429`
 *   for that account until the window ends; other addresses are not affected.
 * - **address** (across accounts): a limit against password spraying. Once reached, that
 *   address gets `429` for every account.
 * - **account** (from every address): never a refusal, only a progressive slowdown. Each
 *   attempt on the account waits `accountDelayMs(failures)` before its password is checked,
 *   a delay that grows with the account's recent failures and is capped. A correct password
 *   from an address that is not itself throttled always passes, at worst after the cap.
 *
 * A successful login resets the pair and account counters, not the address counter (so one
 * good account cannot launder a spraying address). Refused attempts are not counted.
 *
 * Pure: no I/O and no clock. The store gives each counter with the time left in its window.
 */
export const LOGIN_THROTTLE = {
  windowSeconds: 15 * 60,
  maxFailuresPerPair: 5,
  maxFailuresPerAddress: 50,
  /** Account failures in the window answered without delay. */
  accountFreeFailures: 5,
  /** Delay of the first failure past the free ones; doubles with each further failure. */
  accountBaseDelayMs: 250,
  /** The most any attempt waits because of its account's failures. */
  accountMaxDelayMs: 4000,
} as const;

export interface ThrottlePolicy {
  windowSeconds: number;
  maxFailuresPerPair: number;
  maxFailuresPerAddress: number;
  accountFreeFailures: number;
  accountBaseDelayMs: number;
  accountMaxDelayMs: number;
}

/** One fixed-window counter as read from the store. */
export interface WindowCounter {
  failures: number;
  /** Seconds until the window ends; <= 0 when the store knows no end (treated as a full window). */
  ttlSeconds: number;
}

export interface ThrottleCounters {
  pair: WindowCounter;
  address: WindowCounter;
  account: WindowCounter;
}

export type RefusalScope = 'pair' | 'address';

export type ThrottleDecision =
  | { allowed: true; delayMs: number }
  | { allowed: false; retryAfterSeconds: number; scope: RefusalScope };

/**
 * The slowdown of an account with `failures` failed logins in its window: 0 for the free
 * ones, then base, 2 x base, 4 x base... never more than the cap.
 */
export function accountDelayMs(failures: number, policy: ThrottlePolicy = LOGIN_THROTTLE): number {
  const over = Math.floor(failures) - policy.accountFreeFailures;
  if (!(over > 0)) return 0;
  // 2 ** 31 is far past any cap; avoids Infinity for absurd counts
  return Math.min(
    policy.accountMaxDelayMs,
    policy.accountBaseDelayMs * 2 ** Math.min(over - 1, 31),
  );
}

/** Whether an attempt may check its password now (after a delay), or is refused. */
export function throttleDecision(
  counters: ThrottleCounters,
  policy: ThrottlePolicy = LOGIN_THROTTLE,
): ThrottleDecision {
  const blocked: { scope: RefusalScope; ttl: number }[] = [];
  if (counters.pair.failures >= policy.maxFailuresPerPair) {
    blocked.push({ scope: 'pair', ttl: counters.pair.ttlSeconds });
  }
  if (counters.address.failures >= policy.maxFailuresPerAddress) {
    blocked.push({ scope: 'address', ttl: counters.address.ttlSeconds });
  }
  if (blocked.length === 0) {
    return { allowed: true, delayMs: accountDelayMs(counters.account.failures, policy) };
  }
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

/**
 * The address the per-address and per-pair counters key on: an IPv4 address (also when written
 * IPv4-mapped, `::ffff:1.2.3.4`) as is, an IPv6 address as its /64 (one host usually holds a
 * whole /64, so counting single IPv6 addresses would be no limit at all).
 */
export function throttleAddress(ip: string): string {
  const address = ip.trim().toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const groups = expandIPv6(address.split('%')[0]!);
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : address;
}

/** The eight 16-bit groups of an IPv6 address (zero-padded), or null when it is not one. */
function expandIPv6(address: string): string[] | null {
  let text = address;
  const v4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const part = (s: string) => (s === '' ? [] : s.split(':'));
  const head = part(halves[0]!);
  const tail = halves.length === 2 ? part(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => g.padStart(4, '0'));
}

export function throttleMessage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const wait =
    retryAfterSeconds < 60
      ? `${retryAfterSeconds} seconds`
      : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `Too many failed login attempts. Please wait ${wait} and try again.`;
}
