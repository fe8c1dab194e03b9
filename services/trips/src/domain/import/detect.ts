import { ImportLimits, ImportMessages } from '@wayfarer/contracts';
import { InvalidTripError } from '../errors';
import type { ImportDraft } from './draft';
import { geojsonDraft } from './geojson';
import { gpxDraft } from './gpx';
import { kmlDraft } from './kml';
import { parseXml, rootName } from './xml';

/** What a file is by its first bytes: a ZIP, an XML or a JSON document, or none of these. */
export type FileKind = 'zip' | 'xml' | 'json';

/** Bytes of a file's head `fileKind` needs (a BOM and some blank lines before the first mark). */
export const KIND_SNIFF_BYTES = 1024;

export function fileKind(head: Uint8Array): FileKind | null {
  // a local file header, or the end of central directory of an empty archive
  if (head[0] === 0x50 && head[1] === 0x4b && (head[2] === 3 || head[2] === 5)) return 'zip';
  const text = Buffer.from(head)
    .toString('utf8')
    .replace(/^\ufeff/, '')
    .trimStart();
  if (text.startsWith('<')) return 'xml';
  if (text.startsWith('{')) return 'json';
  return null;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** UTF-8 text of a document read whole (a BOM dropped); not UTF-8: `null`. */
export function utf8(bytes: Uint8Array): string | null {
  try {
    return decoder.decode(bytes).replace(/^\ufeff/, '');
  } catch {
    return null;
  }
}

/** A parsed JSON document of at most `ImportLimits.textMaxBytes` (bounded, so depth is too). */
export function parseJson(bytes: Uint8Array): unknown {
  if (bytes.length > ImportLimits.textMaxBytes) {
    throw new InvalidTripError(ImportMessages.textTooLarge);
  }
  const text = utf8(bytes);
  try {
    if (text === null) throw new Error('not UTF-8');
    return JSON.parse(text) as unknown;
  } catch {
    throw new InvalidTripError(ImportMessages.badJson);
  }
}

/**
 * A GPX or KML file (`ImportLimits.xmlMaxBytes` at most) or a GeoJSON one (`textMaxBytes`),
 * read whole, as a draft;
 * anything else is a 400 naming what is accepted. `fileName` (without its extension) names
 * the trip when the file does not.
 */
export function documentDraft(
  kind: 'xml' | 'json',
  bytes: Uint8Array,
  fileName: string,
): ImportDraft {
  if (kind === 'xml') return xmlDraft(bytes, fileName);
  return geojsonDraft(parseJson(bytes), draftName(fileName));
}

/**
 * A GPX or KML file (`ImportLimits.xmlMaxBytes` at most) as a draft: the import's heavy,
 * synchronous step (a DOM of the whole file), which trips runs in a worker thread
 * (`workers/xml-pool.ts`); the draft it answers is plain data.
 */
export function xmlDraft(bytes: Uint8Array, fileName: string): ImportDraft {
  if (bytes.length > ImportLimits.xmlMaxBytes) {
    throw new InvalidTripError(ImportMessages.xmlTooLarge);
  }
  const name = draftName(fileName);
  const text = utf8(bytes);
  if (text === null) throw new InvalidTripError(ImportMessages.badXml);
  const doc = parseXml(text);
  const root = rootName(doc);
  if (root === 'gpx') return gpxDraft(doc, name);
  if (root === 'kml') return kmlDraft(doc, name);
  throw new InvalidTripError(ImportMessages.unsupported);
}

/** A file's name without its extension (names a trip when the file does not). */
const draftName = (fileName: string): string => fileName.replace(/\.[^.]*$/, '');
