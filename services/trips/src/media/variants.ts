import sharp from 'sharp';
import { DISPLAY_MAX_EDGE, DISPLAY_QUALITY, MAX_INPUT_PIXELS } from '../domain/limits';

export interface DisplayVariant {
  data: Buffer;
  contentType: 'image/webp';
  width: number;
  height: number;
}

/** The image could not be decoded (corrupt, truncated, too many pixels). */
export class UnreadableImageError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'UnreadableImageError';
  }
}

/**
 * The display-sized variant of a photo (a file path or bytes): turned upright from its EXIF
 * orientation, fit inside DISPLAY_MAX_EDGE x DISPLAY_MAX_EDGE (never enlarged), WebP at
 * DISPLAY_QUALITY, all metadata (EXIF, GPS, ICC) dropped. An animated GIF keeps its first frame.
 */
export async function makeDisplayVariant(input: string | Buffer): Promise<DisplayVariant> {
  try {
    const { data, info } = await sharp(input, {
      limitInputPixels: MAX_INPUT_PIXELS,
      failOn: 'error',
      sequentialRead: true,
    })
      .autoOrient()
      .resize({
        width: DISPLAY_MAX_EDGE,
        height: DISPLAY_MAX_EDGE,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .webp({ quality: DISPLAY_QUALITY })
      .toBuffer({ resolveWithObject: true });
    return { data, contentType: 'image/webp', width: info.width, height: info.height };
  } catch (err) {
    throw new UnreadableImageError(err);
  }
}
