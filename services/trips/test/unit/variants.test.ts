import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { makeDisplayVariant, UnreadableImageError } from '../../src/media/variants';
import { gif, largeJpeg, png, sidewaysJpeg } from '../fixtures';

describe('makeDisplayVariant', () => {
  it('fits a large photo inside 1600x1600 as WebP, much smaller than the original', async () => {
    const original = await largeJpeg(3000, 2000);
    const display = await makeDisplayVariant(original);
    expect(display).toMatchObject({ contentType: 'image/webp', width: 1600, height: 1067 });
    expect(display.data.length).toBeLessThan(original.length / 2);
    const meta = await sharp(display.data).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 1600, height: 1067 });
  });

  it('never enlarges a small photo', async () => {
    const display = await makeDisplayVariant(await png(200, 100));
    expect(display).toMatchObject({ width: 200, height: 100 });
  });

  it('turns a sideways photo upright from its EXIF orientation and strips the metadata', async () => {
    const original = await sidewaysJpeg();
    expect(original.includes('exif-marker-owner')).toBe(true);
    const display = await makeDisplayVariant(original);
    expect(display).toMatchObject({ width: 200, height: 400 });
    const meta = await sharp(display.data).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(display.data.includes('exif-marker-owner')).toBe(false);
  });

  it('reads a GIF', async () => {
    expect(await makeDisplayVariant(await gif(64, 32))).toMatchObject({ width: 64, height: 32 });
  });

  it('a truncated or corrupt image is an UnreadableImageError', async () => {
    const jpeg = await largeJpeg(300, 200);
    await expect(makeDisplayVariant(jpeg.subarray(0, 400))).rejects.toBeInstanceOf(
      UnreadableImageError,
    );
    const garbage = Buffer.concat([jpeg.subarray(0, 20), Buffer.alloc(2000, 7)]);
    await expect(makeDisplayVariant(garbage)).rejects.toBeInstanceOf(UnreadableImageError);
  });
});
