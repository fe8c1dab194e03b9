import { describe, expect, it } from 'vitest';
import { formatDateRange, formatShortDate } from './format';

describe('dates in short form', () => {
  it('shows year, month and day and never shifts a calendar day', () => {
    const text = formatShortDate('2024-03-01');
    expect(text).toMatch(/2024/);
    expect(text).toMatch(/1/);
    expect(formatShortDate(undefined)).toBe('');
    expect(formatShortDate('not a date')).toBe('');
  });

  it('joins a range and collapses a single day', () => {
    expect(formatDateRange('2024-03-01', '2024-03-05')).toBe(
      `${formatShortDate('2024-03-01')} – ${formatShortDate('2024-03-05')}`,
    );
    expect(formatDateRange('2024-03-01', '2024-03-01')).toBe(formatShortDate('2024-03-01'));
    expect(formatDateRange(undefined, '2024-03-01')).toBe(formatShortDate('2024-03-01'));
    expect(formatDateRange()).toBe('');
  });
});
