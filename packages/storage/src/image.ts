/**
 * Image sniffing by content (magic bytes), never by file name or declared content type: PNG,
 * JPEG, GIF and WebP only, the formats a browser shows without plugins or scripts. SVG is
 * deliberately not an image here (it can carry script), nor is anything else a browser might
 * render (HTML, PDF). Pure: no I/O.
 */
export type ImageKind = 'png' | 'jpeg' | 'gif' | 'webp';

export interface ImageType {
  kind: ImageKind;
  /** File extension used in storage keys. */
  ext: 'png' | 'jpg' | 'gif' | 'webp';
  contentType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
}

export const IMAGE_TYPES: Record<ImageKind, ImageType> = {
  png: { kind: 'png', ext: 'png', contentType: 'image/png' },
  jpeg: { kind: 'jpeg', ext: 'jpg', contentType: 'image/jpeg' },
  gif: { kind: 'gif', ext: 'gif', contentType: 'image/gif' },
  webp: { kind: 'webp', ext: 'webp', contentType: 'image/webp' },
};

/** How many leading bytes `sniffImage` needs to decide (e.g. while a file streams in). */
export const SNIFF_BYTES = 20;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, prefix: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + prefix.length) return false;
  return prefix.every((b, i) => bytes[offset + i] === b);
}

function ascii(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0));
}

/**
 * The image type of a file from its first bytes (`SNIFF_BYTES` are enough), or null when they
 * are not a complete-looking PNG, JPEG, GIF or WebP header. Checks a little more than the
 * magic bytes, so a truncated header (a bare signature and nothing after it) is refused too.
 */
export function sniffImage(bytes: Uint8Array): ImageType | null {
  // PNG: 8-byte signature, then the IHDR chunk (length 13, type "IHDR").
  if (startsWith(bytes, PNG_SIGNATURE)) {
    return startsWith(bytes, [0x00, 0x00, 0x00, 0x0d, ...ascii('IHDR')], 8)
      ? IMAGE_TYPES.png
      : null;
  }
  // JPEG: SOI marker FF D8, then another marker (FF xx, xx not 00/FF) and more data.
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) {
    const marker = bytes[3];
    return bytes.length >= 12 && marker !== undefined && marker !== 0x00 && marker !== 0xff
      ? IMAGE_TYPES.jpeg
      : null;
  }
  // GIF: "GIF87a" or "GIF89a", then the 7-byte logical screen descriptor.
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) {
    return bytes.length >= 13 ? IMAGE_TYPES.gif : null;
  }
  // WebP: RIFF container "RIFF" <size> "WEBP", then a VP8 / VP8L / VP8X chunk.
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) {
    const chunk = String.fromCharCode(...bytes.subarray(12, 16));
    return bytes.length >= 20 && (chunk === 'VP8 ' || chunk === 'VP8L' || chunk === 'VP8X')
      ? IMAGE_TYPES.webp
      : null;
  }
  return null;
}

/** The image type of a stored file by its extension (keys are made by us after sniffing). */
export function imageTypeOfExtension(ext: string): ImageType | null {
  return Object.values(IMAGE_TYPES).find((t) => t.ext === ext) ?? null;
}

/**
 * How many bytes follow the end of the image (PNG's IEND chunk, GIF's trailer, WebP's RIFF
 * length): a payload appended to a real image (a "GIFAR", an image + HTML polyglot). 0 when
 * nothing follows, when the structure is cut short (the decoder judges a truncated image), and
 * for JPEG, which is not checked: cameras legitimately append data after the primary image's
 * EOI (MPF and Ultra HDR gain maps, motion-photo videos), and re-encoding drops it anyway.
 */
export function trailingBytes(bytes: Uint8Array, kind: ImageKind): number {
  const end = imageEnd(bytes, kind);
  return end === null ? 0 : Math.max(0, bytes.length - end);
}

function imageEnd(bytes: Uint8Array, kind: ImageKind): number | null {
  switch (kind) {
    case 'png':
      return pngEnd(bytes);
    case 'gif':
      return gifEnd(bytes);
    case 'webp':
      return webpEnd(bytes);
    case 'jpeg':
      return null;
  }
}

function uint32be(bytes: Uint8Array, at: number): number {
  return (
    ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0
  );
}

/** Offset just after the IEND chunk, or null when the chunks run off the end. */
function pngEnd(bytes: Uint8Array): number | null {
  let at = PNG_SIGNATURE.length;
  while (at + 8 <= bytes.length) {
    const length = uint32be(bytes, at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    at += 12 + length; // length, type, data, CRC
    if (type === 'IEND') return at <= bytes.length ? at : null;
  }
  return null;
}

/** Offset just after the GIF trailer (0x3B), or null when the blocks run off the end. */
function gifEnd(bytes: Uint8Array): number | null {
  const colorTable = (packed: number) => (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);
  /** Skips data sub-blocks (size byte, data) up to the 0 terminator. */
  const subBlocks = (from: number): number | null => {
    let at = from;
    while (at < bytes.length) {
      const size = bytes[at]!;
      at += 1 + size;
      if (size === 0) return at;
    }
    return null;
  };
  if (bytes.length < 13) return null;
  let at: number | null = 13 + colorTable(bytes[10]!);
  while (at !== null && at < bytes.length) {
    const block = bytes[at]!;
    if (block === 0x3b) return at + 1; // trailer
    if (block === 0x21)
      at = subBlocks(at + 2); // extension: introducer, label, sub-blocks
    else if (block === 0x2c) {
      // image descriptor (10 bytes), local colour table, LZW minimum code size, sub-blocks
      if (at + 10 > bytes.length) return null;
      at = subBlocks(at + 10 + colorTable(bytes[at + 9]!) + 1);
    } else return null; // not a GIF block: leave it to the decoder
  }
  return null;
}

/** The RIFF container's declared end (its size field counts from byte 8). */
function webpEnd(bytes: Uint8Array): number | null {
  if (bytes.length < 8) return null;
  const size = (bytes[4]! | (bytes[5]! << 8) | (bytes[6]! << 16) | (bytes[7]! << 24)) >>> 0;
  return 8 + size + (size % 2);
}

/**
 * Markup a browser or a server would run, found anywhere in a file: HTML, script, SVG or PHP.
 * No camera or encoder writes these into an image; a file that carries them is a polyglot.
 * The signatures are long enough (6 bytes and more) that compressed pixel data matches one
 * by chance with a negligible probability.
 */
const MARKUP =
  /<(?:script|iframe|object|embed|html[\s>]|body[\s>]|!doctype\s|\?php[\s])|www\.w3\.org\/(?:2000\/svg|1999\/xhtml)|javascript:/i;

/** The first markup signature in `bytes` (see MARKUP), or null. */
export function findMarkup(bytes: Uint8Array): string | null {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return MARKUP.exec(text)?.[0] ?? null;
}
