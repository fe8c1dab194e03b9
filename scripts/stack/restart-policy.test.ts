import { describe, expect, it } from 'vitest';
import {
  crashesInARowAfter,
  restartDelayMs,
  restartLine,
  RESTART_POLICY,
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
  });
});
