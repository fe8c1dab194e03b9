import { readFile } from 'node:fs/promises';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { imageTimer } from '@wayfarer/service-kit';
import { findMarkup, IMAGE_TYPES, sniffImage, trailingBytes, type ImageType } from './image';

/**
 * The one image pipeline every uploaded image goes through (avatars, photos), with sharp:
 *
 * 1. typed by content (`sniffImage`): PNG, JPEG, GIF or WebP, and the decoder must agree;
 * 2. refused when it is a polyglot: markup anywhere in the file (`findMarkup`), or bytes after
 *    the end of a PNG, GIF or WebP (`trailingBytes`);
 * 3. refused when its header declares more than `MAX_INPUT_PIXELS` (a decompression bomb is
 *    never decoded);
 * 4. decoded completely (`failOn: 'error'`: a corrupt or truncated image is refused), turned
 *    upright from its EXIF orientation, and re-encoded into each variant asked for, with **no
 *    metadata at all** (EXIF with GPS, XMP, IPTC, ICC, comments): sharp writes none unless told
 *    to. Nothing of the upload's bytes is stored, only freshly encoded pixels.
 *
 * Formats: a variant is either WebP or the upload's own family ("same"): JPEG stays JPEG, PNG
 * stays PNG, WebP stays WebP, and a GIF becomes a PNG of its first frame (an animated WebP keeps
 * its first frame too): stored images are stills.
 *
 * Every variant is written to a file next to the upload (`<base>.<variant>.<ext>`), so a trip
 * of 40 large photos does not sit in memory. Nothing here touches a bucket: callers run the
 * pipeline on every image of a request first and store only when all passed.
 */

/** Decoding guard against decompression bombs: 100 megapixels (e.g. 12,000 x 8,333). */
export const MAX_INPUT_PIXELS = 100_000_000;

export interface VariantSpec {
  /** Fit inside maxEdge x maxEdge (never enlarged); omitted: full size. */
  maxEdge?: number;
  /** `webp`, or `same`: the upload's family (see above). */
  format: 'same' | 'webp';
  /** Quality of lossy encoders (JPEG, WebP), 1-100; PNG is lossless. */
  quality: number;
}

/** A trip photo as kept: full size, same family, re-encoded (not served today). */
export const PHOTO_ORIGINAL: VariantSpec = { format: 'same', quality: 90 };
/** What a photo URL serves: WebP inside 1600x1600. */
export const PHOTO_DISPLAY: VariantSpec = { maxEdge: 1600, format: 'webp', quality: 80 };
/** A profile picture: shown small, so one image inside 512x512, same family. */
export const AVATAR_IMAGE: VariantSpec = { maxEdge: 512, format: 'same', quality: 85 };

/** One encoded variant, written to `path`. */
export interface ImageFile {
  path: string;
  type: ImageType;
  bytes: number;
  width: number;
  height: number;
}

export interface ProcessedImage<K extends string> {
  /** The upload's type (by content). */
  source: ImageType;
  /** The upload's size in pixels, upright. */
  width: number;
  height: number;
  variants: Record<K, ImageFile>;
}

/**
 * Why an upload is not stored:
 * - `not_an_image`: not a PNG, JPEG, GIF or WebP, or one carrying something else (polyglot);
 * - `too_many_pixels`: larger than the pixel limit (decompression bomb);
 * - `unreadable`: corrupt or truncated.
 * Services answer 400 with their own message.
 */
export type ImageRejection = 'not_an_image' | 'too_many_pixels' | 'unreadable';

export class ImageRejectedError extends Error {
  constructor(
    readonly reason: ImageRejection,
    detail: string,
  ) {
    super(`image refused (${reason}): ${detail}`);
    this.name = 'ImageRejectedError';
  }
}

export interface PipelineOptions {
  /** Default MAX_INPUT_PIXELS. */
  maxInputPixels?: number;
}

/** `image` shrunk to fit inside `spec.maxEdge` x `spec.maxEdge` (never enlarged), or as it is. */
function fitted(image: Sharp, spec: VariantSpec): Sharp {
  if (!spec.maxEdge) return image;
  return image.resize({
    width: spec.maxEdge,
    height: spec.maxEdge,
    fit: 'inside',
    withoutEnlargement: true,
  });
}

/** The type a variant is encoded as, for an upload of type `source`. */
export function variantType(source: ImageType, spec: VariantSpec): ImageType {
  if (spec.format === 'webp') return IMAGE_TYPES.webp;
  return source.kind === 'gif' ? IMAGE_TYPES.png : source;
}

function encoder(image: Sharp, type: ImageType, quality: number): Sharp {
  switch (type.kind) {
    case 'jpeg':
      return image.jpeg({ quality });
    case 'png':
      return image.png();
    case 'webp':
      return image.webp({ quality });
    case 'gif':
      throw new Error('GIF is never an output format');
  }
}

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * The time of each upload's run (`process`) and of each later variant (`render`), in
 * `wayfarer_image_pipeline_duration_seconds{operation, outcome}`.
 */
const timed = imageTimer();

/**
 * Runs an uploaded image (a file path or its bytes) through the pipeline (see above) and writes
 * each variant of `variants` to `<outBase>.<name>.<ext>`. Throws ImageRejectedError for an
 * upload that must not be stored.
 */
export function processImage<K extends string>(
  input: string | Buffer,
  variants: Record<K, VariantSpec>,
  outBase: string,
  options: PipelineOptions = {},
): Promise<ProcessedImage<K>> {
  return timed('process', () => processUntimed(input, variants, outBase, options));
}

async function processUntimed<K extends string>(
  input: string | Buffer,
  variants: Record<K, VariantSpec>,
  outBase: string,
  options: PipelineOptions,
): Promise<ProcessedImage<K>> {
  const maxPixels = options.maxInputPixels ?? MAX_INPUT_PIXELS;
  const bytes = typeof input === 'string' ? await readFile(input) : input;

  const source = sniffImage(bytes);
  if (!source) throw new ImageRejectedError('not_an_image', 'not a PNG, JPEG, GIF or WebP');
  const markup = findMarkup(bytes);
  if (markup) throw new ImageRejectedError('not_an_image', `it carries markup (${markup})`);
  const trailing = trailingBytes(bytes, source.kind);
  if (trailing > 0) {
    throw new ImageRejectedError('not_an_image', `${trailing} bytes follow the end of the image`);
  }

  // The header only: how large the image says it is, before any pixel is decoded.
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (err) {
    throw new ImageRejectedError('unreadable', describe(err));
  }
  if (meta.format !== source.kind) {
    throw new ImageRejectedError('not_an_image', `decoded as ${meta.format}, not ${source.kind}`);
  }
  if (!meta.width || !meta.height) throw new ImageRejectedError('unreadable', 'no dimensions');
  if (meta.width * meta.height > maxPixels) {
    throw new ImageRejectedError(
      'too_many_pixels',
      `${meta.width}x${meta.height} is over ${maxPixels} pixels`,
    );
  }

  const files = {} as Record<K, ImageFile>;
  for (const name of Object.keys(variants) as K[]) {
    const spec = variants[name];
    const type = variantType(source, spec);
    const path = `${outBase}.${name}.${type.ext}`;
    const image = fitted(
      sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error', sequentialRead: true })
        // upright from EXIF orientation; the tag itself goes with the rest of the metadata
        .autoOrient(),
      spec,
    );
    try {
      const info = await encoder(image, type, spec.quality).toFile(path);
      files[name] = { path, type, bytes: info.size, width: info.width, height: info.height };
    } catch (err) {
      throw new ImageRejectedError('unreadable', describe(err));
    }
  }
  const sideways = (meta.orientation ?? 1) >= 5; // 5-8: turned by 90 degrees
  return {
    source,
    width: sideways ? meta.height : meta.width,
    height: sideways ? meta.width : meta.height,
    variants: files,
  };
}

/**
 * How many threads sharp (libvips) uses for one image (process-wide; sharp's default is the
 * number of cores). With an `ImageQueue` of `concurrency` jobs, `concurrency` threads bound the
 * CPU image work takes.
 */
export function limitImageThreads(threads: number): void {
  sharp.concurrency(threads);
}

/**
 * Makes one more variant of an image this pipeline already wrote (e.g. the display variant of a
 * stored original, later than the upload): the input is trusted (fresh pixels, no metadata,
 * upright), so it is only decoded, resized and encoded. `type` is the input's type; the
 * variant is written to `<outBase>.<name>.<ext>`. A failure here is not the uploader's: it
 * throws a plain Error.
 */
export function renderVariant(
  inputPath: string,
  type: ImageType,
  name: string,
  spec: VariantSpec,
  outBase: string,
): Promise<ImageFile> {
  return timed('render', () => renderUntimed(inputPath, type, name, spec, outBase));
}

async function renderUntimed(
  inputPath: string,
  type: ImageType,
  name: string,
  spec: VariantSpec,
  outBase: string,
): Promise<ImageFile> {
  const outType = variantType(type, spec);
  const path = `${outBase}.${name}.${outType.ext}`;
  const image = fitted(
    sharp(inputPath, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', sequentialRead: true }),
    spec,
  );
  const info = await encoder(image, outType, spec.quality).toFile(path);
  return { path, type: outType, bytes: info.size, width: info.width, height: info.height };
}
