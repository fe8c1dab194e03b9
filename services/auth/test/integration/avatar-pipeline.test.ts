import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
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
} from '@wayfarer/test-kit/images';
import {
  countUsers,
  identityFor,
  newUser,
  register,
  sessionCookie,
  startAuthPerFile,
  type Harness,
} from './harness';

let h: Harness;
startAuthPerFile((started) => (h = started));

const userCount = () => countUsers(h);

/** Registers with `picture`, then fetches the picture as the new user: what others are served. */
async function registerAndFetch(picture: Buffer) {
  const res = await register(h.app, newUser('pipeline'), [
    { data: picture, filename: 'me.jpg', type: 'image/jpeg' },
  ]);
  expect(res.statusCode, res.body).toBe(201);
  const headers = identityFor(sessionCookie(res)!.value);
  const details = await h.app.inject({ url: '/api/userDetails', headers });
  const served = await h.app.inject({ url: details.json().profilePicture, headers });
  expect(served.statusCode).toBe(200);
  return served;
}

describe('every profile picture goes through the image pipeline', () => {
  it('a JPEG with EXIF GPS tags is served without any EXIF', async () => {
    const upload = await jpegWithGps({ width: 640, height: 480 });
    const before = await sharp(upload).metadata();
    expect(exifTags(before.exif).gps).toEqual(
      expect.arrayContaining([GPS_TAGS.latitude, GPS_TAGS.longitude]),
    );
    expect(upload.includes('Exif')).toBe(true);

    const served = await registerAndFetch(upload);
    expect(served.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 512, height: 384 });
    expect(meta.exif).toBeUndefined();
    expect(served.rawPayload.includes('Exif')).toBe(false);
    expect(served.rawPayload.includes(GPS_FIXTURE.mapDatum)).toBe(false);
    expect(served.rawPayload.includes(GPS_FIXTURE.copyright)).toBe(false);
    for (const seconds of gpsSecondsBytes())
      expect(served.rawPayload.includes(seconds)).toBe(false);
  });

  it('a picture taken sideways (landscape pixels, orientation 6) is served upright', async () => {
    const upload = await jpegWithGps({ width: 400, height: 200, orientation: 6 });
    expect(await sharp(upload).metadata()).toMatchObject({
      width: 400,
      height: 200,
      orientation: 6,
    });
    const served = await registerAndFetch(upload);
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta.width).toBeLessThan(meta.height!);
    expect(meta).toMatchObject({ width: 200, height: 400 });
    expect(meta.orientation ?? 1).toBe(1);
  });

  it.each([
    ['a decompression bomb (400 megapixels, really compressed)', () => pngBomb(20_000, 20_000)],
    ['a PNG whose header claims 30000x30000', () => pngLyingHeader(30_000, 30_000)],
    ['a GIF with a script appended', () => gifWithScript()],
    ['a GIF with a JAR appended (GIFAR)', () => gifar()],
  ])('%s: 400, no user, nothing in the bucket', async (_name, make) => {
    const picture = await make();
    const [users, objects] = [await userCount(), (await h.avatars.list()).length];
    const u = newUser('refused');
    const res = await register(h.app, u, [
      { data: picture, filename: 'pic.gif', type: 'image/gif' },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'bad_request',
      message: 'Profile picture must be a PNG, JPEG, GIF or WebP image.',
    });
    expect(sessionCookie(res)).toBeUndefined();
    expect(await userCount()).toBe(users);
    expect((await h.avatars.list()).length).toBe(objects);
    const { rows } = await h.pool.query('SELECT 1 FROM users WHERE email = $1', [u.email]);
    expect(rows).toHaveLength(0);
  });
});
