/*
 * Text from an imported file made into contracts' plain text (`packages/contracts/src/text.ts`):
 * control characters and lone surrogates removed (not refused: a file is not a form the user
 * can correct), then cut to the field's limit without splitting a surrogate pair.
 */

/* eslint-disable no-control-regex -- removing control characters is the point */
const LINE_CONTROL = /[\u0000-\u001f\u007f]+/g;
const MULTILINE_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
/* eslint-enable no-control-regex */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** At most `max` UTF-16 code units of `s`, never ending in half a surrogate pair. */
export function cut(s: string, max: number): string {
  if (s.length <= max) return s;
  const head = s.slice(0, max);
  return /[\ud800-\udbff]$/.test(head) ? head.slice(0, -1) : head;
}

/** A name: one line, blanks collapsed, at most `max` characters. */
export function cleanLine(s: string, max: number): string {
  const clean = s
    .replace(LONE_SURROGATE, '')
    .replace(LINE_CONTROL, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return cut(clean, max).trim();
}

/** A story: line breaks and tabs kept, at most `max` characters. */
export function cleanMultiline(s: string, max: number): string {
  const clean = s
    .replace(LONE_SURROGATE, '')
    .replace(MULTILINE_CONTROL, '')
    .replace(/\r\n?/g, '\n')
    .trim();
  return cut(clean, max);
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/**
 * A description that may be HTML (KML's are, often; GPX's sometimes) as plain text: line and
 * paragraph breaks kept as line breaks, tags dropped, the common entities decoded. Wayfarer
 * shows stories as text, so nothing here is ever rendered as markup.
 */
export function htmlToText(s: string): string {
  if (!/[<&]/.test(s)) return s;
  return s
    .replace(/<\s*br\s*\/?>/gi, '\n')
    .replace(/<\/\s*(p|div|li|h[1-6])\s*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|apos|nbsp);/g, (_, name: string) => ENTITIES[name]!)
    .replace(/&#(\d+);/g, (m, code: string) => safeCodePoint(Number(code)) ?? m)
    .replace(/\n{3,}/g, '\n\n');
}

function safeCodePoint(code: number): string | undefined {
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
}
