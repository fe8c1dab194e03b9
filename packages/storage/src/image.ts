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
