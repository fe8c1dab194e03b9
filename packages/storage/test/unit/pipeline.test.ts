import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  exifTags,
  gifar,
  gifWithScript,
  GPS_FIXTURE,
  GPS_TAGS,
  gpsSecondsBytes,
  jpegWithGps,
  pngBomb,
  pngLyingHeader,
  pngWithText,
} from '@wayfarer/test-kit/images';
import {
  AVATAR_IMAGE,
  ImageRejectedError,
  PHOTO_DISPLAY,
  PHOTO_ORIGINAL,
  processImage,
  type ImageRejection,
} from '../../src/pipeline';

let dir: string;
let n = 0;
const out = () => join(dir, String(n++));
const PHOTO = { original: PHOTO_ORIGINAL, display: PHOTO_DISPLAY };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wayfarer-pipeline-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#2a7' } });

/** The bytes carry no EXIF block and none of the fixture's GPS values. */
async function expectNoExif(bytes: Buffer) {
  const meta = await sharp(bytes).metadata();
  expect(meta.exif).toBeUndefined();
  expect(meta.xmp).toBeUndefined();
  expect(meta.iptc).toBeUndefined();
  expect(bytes.includes('Exif')).toBe(false);
  expect(bytes.includes(GPS_FIXTURE.mapDatum)).toBe(false);
  expect(bytes.includes(GPS_FIXTURE.copyright)).toBe(false);
  for (const seconds of gpsSecondsBytes()) expect(bytes.includes(seconds)).toBe(false);
}

async function expectRejected(input: Buffer, reason: ImageRejection) {
  const error = await processImage(input, PHOTO, out()).then(
    () => null,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(ImageRejectedError);
  expect((error as ImageRejectedError).reason).toBe(reason);
}

describe('processImage', () => {
  it('strips EXIF with GPS from every variant, and turns a sideways photo upright', async () => {
    const upload = await jpegWithGps({ width: 400, height: 200, orientation: 6 });
    // the fixture really carries what must go
    const before = await sharp(upload).metadata();
    expect(before).toMatchObject({ width: 400, height: 200, orientation: 6 });
    const tags = exifTags(before.exif);
    expect(tags.ifd0).toContain(0x8825); // GPS IFD pointer
    expect(tags.gps).toEqual(expect.arrayContaining([GPS_TAGS.latitude, GPS_TAGS.longitude]));
    expect(upload.includes(GPS_FIXTURE.mapDatum)).toBe(true);

    const result = await processImage(upload, PHOTO, out());
    expect(result).toMatchObject({ source: { kind: 'jpeg' }, width: 200, height: 400 });
    expect(result.variants.original).toMatchObject({
      type: { kind: 'jpeg' },
      width: 200,
      height: 400,
    });
    expect(result.variants.display).toMatchObject({
      type: { kind: 'webp' },
      width: 200,
      height: 400,
    });
    for (const variant of Object.values(result.variants)) {
      const bytes = await readFile(variant.path);
      expect(bytes.length).toBe(variant.bytes);
      await expectNoExif(bytes);
      const meta = await sharp(bytes).metadata();
      expect(meta).toMatchObject({ width: 200, height: 400 });
      expect(meta.orientation ?? 1).toBe(1);
    }
  });

  it('keeps the family: JPEG, PNG and WebP stay, a GIF becomes a PNG of its first frame', async () => {
    const uploads = {
      jpeg: await solid(40, 30).jpeg().toBuffer(),
      png: await solid(40, 30).png().toBuffer(),
      webp: await solid(40, 30).webp().toBuffer(),
      gif: await solid(40, 30).gif().toBuffer(),
    };
    const expected = { jpeg: 'jpeg', png: 'png', webp: 'webp', gif: 'png' };
    for (const [kind, bytes] of Object.entries(uploads)) {
      const { variants } = await processImage(bytes, { original: PHOTO_ORIGINAL }, out());
      const stored = await readFile(variants.original.path);
      expect((await sharp(stored).metadata()).format, kind).toBe(
        expected[kind as keyof typeof expected],
      );
      expect(variants.original.path.endsWith(`.original.${variants.original.type.ext}`)).toBe(true);
    }
  });

  it('drops text and private data inside the image structure (a PNG tEXt chunk)', async () => {
    const upload = pngWithText(await solid(40, 30).png().toBuffer(), 'Location', 'secret-place');
    expect(upload.includes('secret-place')).toBe(true);
    expect(await sharp(upload).metadata()).toMatchObject({ format: 'png', width: 40 });
    const { variants } = await processImage(upload, PHOTO, out());
    for (const variant of Object.values(variants)) {
      const bytes = await readFile(variant.path);
      expect(bytes.includes('secret-place')).toBe(false);
      expect(bytes.includes('tEXt')).toBe(false);
    }
  });

  it('fits the display variant inside 1600 px and an avatar inside 512 px, never enlarging', async () => {
    const large = await solid(3000, 2000).jpeg().toBuffer();
    const { variants } = await processImage(
      large,
      { display: PHOTO_DISPLAY, avatar: AVATAR_IMAGE },
      out(),
    );
    expect(variants.display).toMatchObject({ width: 1600, height: 1067 });
    expect(variants.avatar).toMatchObject({ width: 512, height: 341, type: { kind: 'jpeg' } });
    const small = await processImage(await solid(200, 100).png().toBuffer(), PHOTO, out());
    expect(small.variants.display).toMatchObject({ width: 200, height: 100 });
  });

  it('reads a file path as well as bytes', async () => {
    const path = `${out()}.upload`;
    await sharp(await solid(20, 10).png().toBuffer()).toFile(path);
    const { variants } = await processImage(path, PHOTO, out());
    expect(variants.display).toMatchObject({ width: 20, height: 10 });
  });

  it('refuses a decompression bomb from its header, without decoding it', async () => {
    const bomb = pngBomb(20_000, 20_000);
    expect(bomb.length).toBeLessThan(200_000);
    expect(await sharp(bomb, { limitInputPixels: false }).metadata()).toMatchObject({
      width: 20_000,
      height: 20_000,
    });
    await expectRejected(bomb, 'too_many_pixels');
    await expectRejected(await pngLyingHeader(30_000, 30_000), 'too_many_pixels');
  });

  it('refuses polyglots: markup in or after an image, an archive after a GIF', async () => {
    const gif = await gifWithScript();
    // a real GIF that a decoder reads happily
    expect(await sharp(gif).metadata()).toMatchObject({ format: 'gif', width: 16 });
    await expectRejected(gif, 'not_an_image');
    await expectRejected(await gifar(), 'not_an_image');
    const jpeg = await solid(40, 30).jpeg().toBuffer();
    await expectRejected(
      Buffer.concat([jpeg, Buffer.from('<!doctype html><p>hi</p>')]),
      'not_an_image',
    );
    const png = await solid(40, 30).png().toBuffer();
    await expectRejected(Buffer.concat([png, Buffer.from('PK\u0003\u0004 zip')]), 'not_an_image');
    // markup inside the image's own structure (a JPEG comment) is refused too
    const withComment = Buffer.concat([
      jpeg.subarray(0, 2),
      Buffer.from([0xff, 0xfe, 0x00, 0x22]),
      Buffer.from('<script>alert(1)</script>......'),
      jpeg.subarray(2),
    ]);
    await expectRejected(withComment, 'not_an_image');
  });

  it('accepts data after a JPEG (camera gain maps, motion photos) and drops it', async () => {
    const jpeg = await solid(40, 30).jpeg().toBuffer();
    const second = await solid(8, 8).jpeg().toBuffer();
    const { variants } = await processImage(
      Buffer.concat([jpeg, second]),
      { original: PHOTO_ORIGINAL },
      out(),
    );
    const stored = await readFile(variants.original.path);
    expect(variants.original).toMatchObject({ width: 40, height: 30 });
    // one image: a single end-of-image marker
    expect(stored.indexOf(Buffer.from([0xff, 0xd9]))).toBe(stored.length - 2);
  });

  it('refuses what is not an image, and corrupt or truncated images', async () => {
    await expectRejected(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'not_an_image');
    const jpeg = await sharp({
      create: {
        width: 300,
        height: 200,
        channels: 3,
        background: '#000',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .jpeg()
      .toBuffer();
    await expectRejected(jpeg.subarray(0, Math.floor(jpeg.length / 3)), 'unreadable');
    await expectRejected(
      Buffer.concat([jpeg.subarray(0, 20), Buffer.alloc(2000, 7)]),
      'unreadable',
    );
  });
});
