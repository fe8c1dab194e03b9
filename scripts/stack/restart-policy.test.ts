import { describe, expect, it } from 'vitest';
import {
  crashesInARowAfter,
  restartDelayMs,
  restartLine,
  RESTART_POLICY,
  seriesEndLine,
  shouldRestart,
} from './restart-policy';

describe('the stack runner restart policy', () => {
  it('waits 1 s after a first crash, doubling with each crash in a row, at most 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50].map((n) => restartDelayMs(n))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });

  it('counts a crash after a healthy period as the first of a new series', () => {
    const healthy = RESTART_POLICY.healthyResetMs;
    expect(crashesInARowAfter(0, healthy + 5_000)).toBe(1);
    expect(crashesInARowAfter(4, healthy)).toBe(1);
    // soon after it was ready, or before it ever was: one more in the series
    expect(crashesInARowAfter(4, healthy - 1)).toBe(5);
    expect(crashesInARowAfter(4, null)).toBe(5);
    expect(restartDelayMs(crashesInARowAfter(4, healthy))).toBe(1_000);
  });

  it('ends a series once the process has run ready for 10 s: the next crash waits 1 s', () => {
    expect(RESTART_POLICY.healthyResetMs).toBe(10_000);
    // four crashes each soon after ready: 1, 2, 4, 8 s; then 10 s ready, and 1 s again
    let crashes = 0;
    const delays = [null, 3_000, 3_000, 3_000, 10_000].map((readyFor) => {
      crashes = crashesInARowAfter(crashes, readyFor);
      return restartDelayMs(crashes);
    });
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 1_000]);
    // a policy of its own (tests of the runner) ends its series at its own period
    const quick = { firstDelayMs: 100, maxDelayMs: 1_000, healthyResetMs: 500 };
    expect(crashesInARowAfter(3, 499, quick)).toBe(4);
    expect(crashesInARowAfter(3, 500, quick)).toBe(1);
  });

  it('restarts only exits nobody asked for: never after stopProcess or a stop of the stack', () => {
    expect(shouldRestart({ stackStopping: false, stopAsked: false })).toBe(true);
    expect(shouldRestart({ stackStopping: false, stopAsked: true })).toBe(false);
    expect(shouldRestart({ stackStopping: true, stopAsked: false })).toBe(false);
  });

  it('says what happened and what comes next', () => {
    expect(restartLine('gateway', { code: null, signal: 'SIGKILL' }, 1_000, 1)).toBe(
      'gateway exited with signal SIGKILL; restarting in 1 s (restart 1)',
    );
    expect(restartLine('trips', { code: 1, signal: null }, 16_000, 5)).toBe(
      'trips exited with code 1; restarting in 16 s (restart 5)',
    );
    expect(seriesEndLine('social', 4)).toBe(
      'social has run ready for 10 s since restart 4; its back-off is 1 s again',
    );
  });
});
