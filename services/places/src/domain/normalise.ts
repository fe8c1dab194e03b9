/**
 * Text normalisation shared by the index and the queries, so both sides compare the same way:
 * lower case, accents and other diacritics removed (NFKD, then combining marks stripped), letters
 * that do not decompose folded by hand (ß→ss, ł→l, ø→o, ı→i, ...), apostrophes, quotes and
 * periods dropped ("N'Djamena" → "ndjamena", "D.C." → "dc"), every other run of non-letters and
 * non-digits turned into one space, and the ends trimmed.
 *
 *   normalise('  São   Paulo ') === 'sao paulo'
 *   normalise('Zürich (Kreis 11)') === 'zurich kreis 11'
 *   normalise('Łódź') === 'lodz'
 */
export function normalise(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(COMBINING_MARKS, '')
    .replace(UNDECOMPOSED, (letter) => FOLDS[letter] ?? letter)
    .replace(DROPPED, '')
    .replace(SEPARATORS, ' ')
    .trim();
}

const COMBINING_MARKS = /\p{M}+/gu;

/** Lower-case letters that NFKD leaves alone but people type without the stroke or ligature. */
const FOLDS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
  ŧ: 't',
  ŀ: 'l',
};
const UNDECOMPOSED = /[ßæœøłđðþıħŧŀ]/g;

/** Apostrophes, okina, quotes and periods vanish instead of splitting a word. */
const DROPPED = /['’‘`´ʹʻʼʽ′"“”.]/g;

/** Anything that is not a letter or a digit separates words. */
const SEPARATORS = /[^\p{L}\p{N}]+/gu;
