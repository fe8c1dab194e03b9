import { describe, expect, it } from 'vitest';
import { carouselLayout, nextPhoto, previousPhoto, wrapIndex } from './carousel';

describe('photo carousel', () => {
  it('wraps forwards from the last photo to the first', () => {
    expect(nextPhoto(0, 3)).toBe(1);
    expect(nextPhoto(1, 3)).toBe(2);
    expect(nextPhoto(2, 3)).toBe(0);
  });

  it('wraps backwards from the first photo to the last', () => {
    expect(previousPhoto(0, 3)).toBe(2);
    expect(previousPhoto(2, 3)).toBe(1);
  });

  it('stays on the only photo', () => {
    expect(nextPhoto(0, 1)).toBe(0);
    expect(previousPhoto(0, 1)).toBe(0);
  });

  it('is index 0 with no photos', () => {
    expect(nextPhoto(0, 0)).toBe(0);
    expect(previousPhoto(0, 0)).toBe(0);
    expect(wrapIndex(5, 0)).toBe(0);
  });

  it('wraps any distance', () => {
    expect(wrapIndex(-7, 3)).toBe(2);
    expect(wrapIndex(7, 3)).toBe(1);
  });

  it('is 250 px high under 640 px wide', () => {
    expect(carouselLayout(375, { width: 375, height: 480 })).toEqual({
      mode: 'mobile',
      height: 250,
    });
    expect(carouselLayout(639, { width: 639, height: 500 }).mode).toBe('mobile');
  });

  it('is 350x400 on a desktop map column of at least 600x720, else 300x350', () => {
    expect(carouselLayout(1440, { width: 616, height: 836 })).toEqual({
      mode: 'desktop',
      width: 350,
      height: 400,
    });
    expect(carouselLayout(800, { width: 800, height: 630 })).toEqual({
      mode: 'desktop',
      width: 300,
      height: 350,
    });
    expect(carouselLayout(1024, { width: 450, height: 704 })).toEqual({
      mode: 'desktop',
      width: 300,
      height: 350,
    });
  });
});
