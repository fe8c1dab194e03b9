import { describe, expect, it } from 'vitest';
import { timeAgo } from './timeAgo';

describe('timeAgo', () => {
  it('says how long ago', () => {
    const now = Date.parse('2026-11-26T12:00:00Z');
    expect(timeAgo('2026-11-26T11:59:40Z', now)).toBe('just now');
    expect(timeAgo('2026-11-26T11:55:00Z', now)).toBe('5 min');
    expect(timeAgo('2026-11-26T09:00:00Z', now)).toBe('3 h');
    expect(timeAgo('2026-11-24T12:00:00Z', now)).toBe('2 d');
    expect(timeAgo('not a date', now)).toBe('');
    expect(timeAgo('2026-10-01T12:00:00Z', now)).not.toBe('');
  });
});
