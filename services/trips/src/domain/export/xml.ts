/*
 * The little XML the GPX and KML writers need, by hand (a library would be larger than what it
 * writes): text escaped, characters XML 1.0 forbids left out.
 */

/**
 * Every character XML 1.0 does not allow (`Char`: tab, newline, carriage return, U+0020 to
 * U+D7FF, U+E000 to U+FFFD, U+10000 and above): the C0 controls, lone surrogates, U+FFFE/FFFF.
 */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  // a parser turns a carriage return in text into a newline, tabs and newlines in an attribute
  // into spaces: as references they come back as they were
  '\r': '&#13;',
  '\n': '&#10;',
  '\t': '&#9;',
};

/** `text` as XML character data (content or attribute value). */
export function xmlText(text: string): string {
  return text.replace(NOT_XML_CHAR, '').replace(/[&<>"']|\r/g, (c) => ENTITIES[c]!);
}

/** `text` as an attribute value (its quotes not included). */
export function xmlAttribute(text: string): string {
  return xmlText(text).replace(/[\n\t]/g, (c) => ENTITIES[c]!);
}

/** `<name>text</name>`, or nothing when `text` is empty (an optional element left out). */
export function xmlElement(name: string, text: string): string {
  return text === '' ? '' : `<${name}>${xmlText(text)}</${name}>`;
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';
