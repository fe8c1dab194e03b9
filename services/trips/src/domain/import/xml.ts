import { DOMParser, onErrorStopParsing, type Document } from '@xmldom/xmldom';
import { ImportLimits, ImportMessages } from '@wayfarer/contracts';
import { InvalidTripError } from '../errors';

/**
 * An imported XML document (GPX, KML) as a DOM, parsed with `@xmldom/xmldom` (maintained, pure
 * JavaScript, no network and no external entities). Before parsing, the text must be within
 * `ImportLimits.xmlMaxBytes` and declare no DOCTYPE or ENTITY at all: GPX and KML need none,
 * and refusing them up front rules out entity expansion (a "billion laughs") and external
 * entities whatever the parser would do with them. Anything not well-formed is refused too.
 * (`ImportLimits.xmlMaxBytes`: a DOM takes some 60 times the text's size.)
 */
export function parseXml(text: string): Document {
  if (Buffer.byteLength(text) > ImportLimits.xmlMaxBytes) {
    throw new InvalidTripError(ImportMessages.xmlTooLarge);
  }
  if (/<!\s*(DOCTYPE|ENTITY)/i.test(text)) {
    throw new InvalidTripError(ImportMessages.xmlDeclarations);
  }
  try {
    return new DOMParser({ onError: onErrorStopParsing }).parseFromString(text, 'text/xml');
  } catch {
    throw new InvalidTripError(ImportMessages.badXml);
  }
}

/** The root element's local name, lower-cased (`gpx`, `kml`), or '' when there is none. */
export function rootName(doc: Document): string {
  return (doc.documentElement?.localName ?? '').toLowerCase();
}

/** The text of the first direct child of `parent` named `name`, or ''. */
export function childText(parent: { childNodes: ArrayLike<unknown> } | null, name: string): string {
  if (!parent) return '';
  for (const node of Array.from(parent.childNodes) as {
    localName?: string;
    textContent?: string | null;
  }[]) {
    if (node.localName === name) return node.textContent?.trim() ?? '';
  }
  return '';
}
