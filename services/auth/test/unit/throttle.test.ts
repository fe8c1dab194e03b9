import { describe, expect, it } from 'vitest';
import { LOGIN_THROTTLE, throttleDecision, throttleMessage } from '../../src/domain/throttle';

const none = { emailFailures: 0, emailTtlSeconds: -2, ipFailures: 0, ipTtlSeconds: -2 };

describe('login throttle policy', () => {
  it('documents its limits: 10 per email and 50 per IP in 15 minutes', () => {
    expect(LOGIN_THROTTLE).toEqual({
      windowSeconds: 900,
      maxFailuresPerEmail: 10,
      maxFailuresPerIp: 50,
    });
  });

  it('allows below the limits', () => {
    expect(throttleDecision(none)).toEqual({ allowed: true });
    expect(
      throttleDecision({
        emailFailures: 9,
        emailTtlSeconds: 100,
        ipFailures: 49,
        ipTtlSeconds: 100,
      }),
    ).toEqual({
      allowed: true,
    });
  });

  it('blocks an email at its limit until the window ends', () => {
    expect(throttleDecision({ ...none, emailFailures: 10, emailTtlSeconds: 321 })).toEqual({
      allowed: false,
      retryAfterSeconds: 321,
      scope: 'email',
    });
  });

  it('blocks an IP at its limit', () => {
    expect(throttleDecision({ ...none, ipFailures: 50, ipTtlSeconds: 42 })).toEqual({
      allowed: false,
      retryAfterSeconds: 42,
      scope: 'ip',
    });
  });

  it('waits for the longer block when both apply', () => {
    const d = throttleDecision({
      emailFailures: 12,
      emailTtlSeconds: 10,
      ipFailures: 60,
      ipTtlSeconds: 700,
    });
    expect(d).toEqual({ allowed: false, retryAfterSeconds: 700, scope: 'ip' });
  });

  it('treats a counter without TTL as a full window, and never says 0 seconds', () => {
    expect(throttleDecision({ ...none, emailFailures: 10, emailTtlSeconds: -1 })).toMatchObject({
      retryAfterSeconds: 900,
    });
    expect(throttleDecision({ ...none, emailFailures: 10, emailTtlSeconds: 0 })).toMatchObject({
      retryAfterSeconds: 900,
    });
  });

  it('honours a custom policy', () => {
    const policy = { windowSeconds: 60, maxFailuresPerEmail: 2, maxFailuresPerIp: 3 };
    expect(
      throttleDecision({ ...none, emailFailures: 2, emailTtlSeconds: 5 }, policy).allowed,
    ).toBe(false);
    expect(throttleDecision({ ...none, emailFailures: 1, ipFailures: 2 }, policy).allowed).toBe(
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
