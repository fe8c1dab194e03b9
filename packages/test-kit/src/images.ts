import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/**
 * Images for the upload tests (`@wayfarer/test-kit/images`), made with sharp or by hand, the
 * kinds people really upload and the kinds attackers do: photos carrying EXIF with a GPS
 * position, sideways photos, decompression bombs and polyglots.
 */

/** What `jpegWithGps` writes, so tests can look for it in what is served. */
export const GPS_FIXTURE = {
  /** 59°54'30.30" N, 10°45'12.34" E (Oslo). */
  latitude: '59/1 54/1 3030/100',
  longitude: '10/1 45/1 1234/100',
  /** An ASCII tag value that is easy to find in raw bytes. */
  mapDatum: 'WGS-84-wayfarer-gps-fixture',
  copyright: 'exif-marker-owner',
} as const;

/** The raw bytes of the latitude's seconds (3030/100) as EXIF stores them (both byte orders). */
export function gpsSecondsBytes(): Buffer[] {
  const le = Buffer.alloc(8);
  le.writeUInt32LE(3030, 0);
  le.writeUInt32LE(100, 4);
  const be = Buffer.alloc(8);
  be.writeUInt32BE(3030, 0);
  be.writeUInt32BE(100, 4);
  return [le, be];
}

/**
 * A JPEG photo with EXIF: IFD0 (Copyright), GPS (latitude, longitude, map datum) and an
 * orientation (6: stored landscape, shown portrait). Noise makes it photo-like.
 */
export function jpegWithGps(
  options: { width?: number; height?: number; orientation?: number } = {},
): Promise<Buffer> {
  const { width = 400, height = 200, orientation = 1 } = options;
  return sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#c33',
      noise: { type: 'gaussian', mean: 120, sigma: 30 },
    },
  })
    .jpeg({ quality: 90 })
    .withMetadata({ orientation })
    .withExif({
      IFD0: { Copyright: GPS_FIXTURE.copyright },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: GPS_FIXTURE.latitude,
        GPSLongitudeRef: 'E',
        GPSLongitude: GPS_FIXTURE.longitude,
        GPSMapDatum: GPS_FIXTURE.mapDatum,
      },
    })
    .toBuffer();
}

/** Tag numbers of the IFD0 and GPS IFD of an EXIF block (sharp's `metadata().exif`). */
export function exifTags(exif: Buffer | undefined): { ifd0: number[]; gps: number[] } {
  if (!exif) return { ifd0: [], gps: [] };
  // "Exif\0\0" then a TIFF header: byte order, 42, offset of IFD0
  const tiff = exif.subarray(exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? 6 : 0);
  const le = tiff.subarray(0, 2).toString('latin1') === 'II';
  const u16 = (at: number) => (le ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (le ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const entries = (offset: number) => {
    const count = u16(offset);
    return Array.from({ length: count }, (_, i) => ({
      tag: u16(offset + 2 + i * 12),
      value: u32(offset + 2 + i * 12 + 8),
    }));
  };
  const ifd0 = entries(u32(4));
  const gpsPointer = ifd0.find((e) => e.tag === 0x8825);
  return {
    ifd0: ifd0.map((e) => e.tag),
    gps: gpsPointer ? entries(gpsPointer.value).map((e) => e.tag) : [],
  };
}

/** GPS tag numbers: GPSLatitude and GPSLongitude. */
export const GPS_TAGS = { latitude: 0x0002, longitude: 0x0004 } as const;

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb: a PNG of `width` x `height` 1-bit pixels, all blank, really
 * compressed (a few dozen KB for 400 megapixels), so only a pixel limit stops a decoder.
 */
export function pngBomb(width = 20_000, height = 20_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const row = 1 + Math.ceil(width / 8); // filter byte + pixels
  const idat = deflateSync(Buffer.alloc(row * height), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A tiny real PNG whose IHDR claims `width` x `height` (the pixel data is for 1x1). */
export async function pngLyingHeader(width = 30_000, height = 30_000): Promise<Buffer> {
  const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } })
    .png()
    .toBuffer();
  const ihdr = Buffer.from(png.subarray(16, 29)); // after signature, length and type
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  return Buffer.concat([png.subarray(0, 8), pngChunk('IHDR', ihdr), png.subarray(33)]);
}

export const SCRIPT_PAYLOAD = '<html><body><script>alert(document.cookie)</script></body></html>';

/** A valid GIF with HTML and script appended: a browser sniffing it may run it. */
export async function gifWithScript(): Promise<Buffer> {
  const gif = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#fc0' } })
    .gif()
    .toBuffer();
  return Buffer.concat([gif, Buffer.from(SCRIPT_PAYLOAD)]);
}

/** A "GIFAR": a valid GIF with a ZIP archive (a JAR) appended, no markup in it. */
export async function gifar(): Promise<Buffer> {
  const gif = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#0cf' } })
    .gif()
    .toBuffer();
  // local file header, the file name, then end of central directory
  const zip = Buffer.concat([
    Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 0, 0]),
    Buffer.alloc(16),
    Buffer.from([20, 0, 0, 0]),
    Buffer.from('META-INF/MANIFEST.MF', 'latin1'),
    Buffer.from([0x50, 0x4b, 0x05, 0x06]),
    Buffer.alloc(18),
  ]);
  return Buffer.concat([gif, zip]);
}

/** `png` with a tEXt chunk (`keyword`: `text`) inserted before its IEND chunk. */
export function pngWithText(png: Buffer, keyword: string, text: string): Buffer {
  const iend = png.length - 12;
  const chunk = pngChunk('tEXt', Buffer.from(`${keyword}\0${text}`, 'latin1'));
  return Buffer.concat([png.subarray(0, iend), chunk, png.subarray(iend)]);
}
