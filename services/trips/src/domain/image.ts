/**
 * Image sniffing by content (magic bytes), never by file name or declared content type: JPEG,
 * PNG, WebP and GIF only. SVG is deliberately not an image here (it can carry script), nor is
 * anything else a browser might render (HTML, PDF).
 */
export type ImageKind = 'jpeg' | 'png' | 'webp' | 'gif';

export interface ImageType {
  kind: ImageKind;
  /** File extension used in storage keys. */
  ext: 'jpg' | 'png' | 'webp' | 'gif';
  contentType: 'image/jpeg' | 'image/png' | 'image/webp' | 'image/gif';
}

export const IMAGE_TYPES: Record<ImageKind, ImageType> = {
  jpeg: { kind: 'jpeg', ext: 'jpg', contentType: 'image/jpeg' },
  png: { kind: 'png', ext: 'png', contentType: 'image/png' },
  webp: { kind: 'webp', ext: 'webp', contentType: 'image/webp' },
  gif: { kind: 'gif', ext: 'gif', contentType: 'image/gif' },
};

/** How many leading bytes `sniffImage` needs to decide. */
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
 * The image type of a file from its first bytes, or null when they are not a complete-looking
 * JPEG, PNG, WebP or GIF header (a bare signature with nothing after it is refused too).
 */
export function sniffImage(bytes: Uint8Array): ImageType | null {
  // JPEG: SOI marker FF D8, then another marker (FF xx, xx not 00/FF) and more data.
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) {
    const marker = bytes[3];
    return bytes.length >= 12 && marker !== undefined && marker !== 0x00 && marker !== 0xff
      ? IMAGE_TYPES.jpeg
      : null;
  }
  // PNG: 8-byte signature, then the IHDR chunk (length 13, type "IHDR").
  if (startsWith(bytes, PNG_SIGNATURE)) {
    return startsWith(bytes, [0x00, 0x00, 0x00, 0x0d, ...ascii('IHDR')], 8)
      ? IMAGE_TYPES.png
      : null;
  }
  // WebP: RIFF container "RIFF" <size> "WEBP", then a VP8 / VP8L / VP8X chunk.
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) {
    const chunk = String.fromCharCode(...bytes.subarray(12, 16));
    return bytes.length >= 20 && (chunk === 'VP8 ' || chunk === 'VP8L' || chunk === 'VP8X')
      ? IMAGE_TYPES.webp
      : null;
  }
  // GIF: "GIF87a" or "GIF89a", then the 7-byte logical screen descriptor.
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) {
    return bytes.length >= 13 ? IMAGE_TYPES.gif : null;
  }
  return null;
}
