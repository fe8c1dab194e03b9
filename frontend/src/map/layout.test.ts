import { describe, expect, it } from 'vitest';
import { mapHeightFor } from './layout';

describe('mapHeightFor', () => {
  it('is 60vh under 640 px', () => {
    expect(mapHeightFor(0)).toBe('60vh');
    expect(mapHeightFor(375)).toBe('60vh');
    expect(mapHeightFor(639)).toBe('60vh');
    expect(mapHeightFor(639.5)).toBe('60vh');
  });

  it('is 70vh from 640 px up to under 1024 px', () => {
    expect(mapHeightFor(640)).toBe('70vh');
    expect(mapHeightFor(800)).toBe('70vh');
    expect(mapHeightFor(1023)).toBe('70vh');
  });

  it('is full height from 1024 px', () => {
    expect(mapHeightFor(1024)).toBe('100%');
    expect(mapHeightFor(1440)).toBe('100%');
    expect(mapHeightFor(3840)).toBe('100%');
  });
});
