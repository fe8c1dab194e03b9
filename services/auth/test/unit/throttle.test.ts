import { describe, expect, it } from 'vitest';
import {
  accountDelayMs,
  LOGIN_THROTTLE,
  throttleAddress,
  throttleDecision,
  throttleMessage,
  type ThrottleCounters,
} from '../../src/domain/throttle';

const fresh = { failures: 0, ttlSeconds: -2 };
const none: ThrottleCounters = { pair: fresh, address: fresh, account: fresh };
const counters = (c: Partial<Record<keyof ThrottleCounters, [number, number]>>) => ({
  ...none,
  ...Object.fromEntries(
    Object.entries(c).map(([k, [failures, ttlSeconds]]) => [k, { failures, ttlSeconds }]),
  ),
});

describe('login throttle policy', () => {
  it('documents its limits: 5 per address and account, 50 per address, slowdown capped at 4 s', () => {
    expect(LOGIN_THROTTLE).toEqual({
      windowSeconds: 900,
      maxFailuresPerPair: 5,
      maxFailuresPerAddress: 50,
      accountFreeFailures: 5,
      accountBaseDelayMs: 250,
      accountMaxDelayMs: 4000,
    });
  });

  it('allows below the limits, without delay while the account has few failures', () => {
    expect(throttleDecision(none)).toEqual({ allowed: true, delayMs: 0 });
    expect(
      throttleDecision(counters({ pair: [4, 100], address: [49, 100], account: [5, 100] })),
    ).toEqual({ allowed: true, delayMs: 0 });
  });

  it('refuses a pair at its limit until its window ends', () => {
    expect(throttleDecision(counters({ pair: [5, 321], account: [5, 321] }))).toEqual({
      allowed: false,
      retryAfterSeconds: 321,
      scope: 'pair',
    });
  });

  it('refuses an address at its limit, whatever the account', () => {
    expect(throttleDecision(counters({ address: [50, 42] }))).toEqual({
      allowed: false,
      retryAfterSeconds: 42,
      scope: 'address',
    });
  });

  it('never refuses because of the account alone: any number of failures only slows it down', () => {
    for (const failures of [6, 10, 50, 1000, 1e9, Number.MAX_SAFE_INTEGER]) {
      const d = throttleDecision(counters({ account: [failures, 900] }));
      expect(d.allowed).toBe(true);
      expect(d.allowed && d.delayMs).toBeGreaterThan(0);
      expect(d.allowed && d.delayMs).toBeLessThanOrEqual(LOGIN_THROTTLE.accountMaxDelayMs);
    }
  });

  it('waits for the longer block when both apply', () => {
    expect(throttleDecision(counters({ pair: [12, 10], address: [60, 700] }))).toEqual({
      allowed: false,
      retryAfterSeconds: 700,
      scope: 'address',
    });
  });

  it('treats a counter without TTL as a full window, and never says 0 seconds', () => {
    expect(throttleDecision(counters({ pair: [5, -1] }))).toMatchObject({ retryAfterSeconds: 900 });
    expect(throttleDecision(counters({ pair: [5, 0] }))).toMatchObject({ retryAfterSeconds: 900 });
    expect(throttleDecision(counters({ address: [50, 0.2] }))).toMatchObject({
      retryAfterSeconds: 1,
    });
  });

  it('honours a custom policy', () => {
    const policy = { ...LOGIN_THROTTLE, maxFailuresPerPair: 2, maxFailuresPerAddress: 3 };
    expect(throttleDecision(counters({ pair: [2, 5] }), policy).allowed).toBe(false);
    expect(throttleDecision(counters({ pair: [1, 5], address: [2, 5] }), policy).allowed).toBe(
      true,
    );
  });

  it('says how long to wait', () => {
    expect(throttleMessage(30)).toBe(
      'Too many failed login attempts. Please wait 30 seconds and try again.',
    );
    expect(throttleMessage(60)).toBe(
      'Too many failed login attempts. Please wait 1 minute and try again.',
    );
    expect(throttleMessage(899)).toBe(
      'Too many failed login attempts. Please wait 15 minutes and try again.',
    );
  });
});

describe('account slowdown', () => {
  it('is free for the first failures, then doubles from the base delay up to the cap', () => {
    const delays = Array.from({ length: 13 }, (_, failures) => accountDelayMs(failures));
    expect(delays).toEqual([0, 0, 0, 0, 0, 0, 250, 500, 1000, 2000, 4000, 4000, 4000]);
  });

  it('never decreases as failures grow, and never passes the cap', () => {
    let previous = 0;
    for (let failures = 0; failures <= 10_000; failures++) {
      const delay = accountDelayMs(failures);
      expect(delay).toBeGreaterThanOrEqual(previous);
      expect(delay).toBeLessThanOrEqual(LOGIN_THROTTLE.accountMaxDelayMs);
      previous = delay;
    }
    expect(accountDelayMs(Number.MAX_SAFE_INTEGER)).toBe(LOGIN_THROTTLE.accountMaxDelayMs);
  });

  it('follows a custom policy', () => {
    const policy = {
      ...LOGIN_THROTTLE,
      accountFreeFailures: 0,
      accountBaseDelayMs: 100,
      accountMaxDelayMs: 300,
    };
    expect([0, 1, 2, 3, 4].map((n) => accountDelayMs(n, policy))).toEqual([0, 100, 200, 300, 300]);
  });

  it('an attack from ten addresses leaves the owner, from an eleventh, slowed by at most the cap', () => {
    // the store's view after ten wrong passwords, one from each of ten addresses
    const owner = throttleDecision(
      counters({ pair: [0, -2], address: [0, -2], account: [10, 800] }),
    );
    expect(owner).toEqual({ allowed: true, delayMs: LOGIN_THROTTLE.accountMaxDelayMs });
  });
});

describe('throttle address', () => {
  it('keeps IPv4 as is, and unwraps IPv4-mapped IPv6', () => {
    expect(throttleAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(throttleAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(throttleAddress('::FFFF:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts an IPv6 address by its /64, whatever its spelling', () => {
    const a = throttleAddress('2001:db8:1:2:aaaa:bbbb:cccc:dddd');
    expect(a).toBe('2001:0db8:0001:0002::/64');
    expect(throttleAddress('2001:DB8:1:2::1')).toBe(a);
    expect(throttleAddress('2001:0db8:0001:0002:0:0:0:ffff')).toBe(a);
    expect(throttleAddress('2001:db8:1:3::1')).not.toBe(a);
    expect(throttleAddress('::1')).toBe('0000:0000:0000:0000::/64');
    expect(throttleAddress('fe80::1%eth0')).toBe('fe80:0000:0000:0000::/64');
    expect(throttleAddress('::ffff:1:2:3:4:5')).toBe('0000:0000:ffff:0001::/64');
  });

  it('leaves what is not an address as it is (it still counts, under its own name)', () => {
    expect(throttleAddress('not:an:address::x')).toBe('not:an:address::x');
    expect(throttleAddress('1::2::3')).toBe('1::2::3');
  });
});
