import { z } from 'zod';

/*
 * The one rule for text crossing a boundary: every text input of every route (JSON
 * bodies, multipart text fields, query parameters, path ids, chat's socket payloads) is plain
 * text, checked before any store sees it. PostgreSQL refuses NUL in text (a 500 where a 400
 * belongs), a lone UTF-16 surrogate cannot be encoded as UTF-8, and control characters in a
 * name or a place are never meant.
 *
 * - `line` (names, places, ids, queries, dates, emails, passwords): no C0 control character
 *   (U+0000 to U+001F, tab and line breaks included), no DEL (U+007F), no lone surrogate.
 * - `multiline` (stories, journal content, chat text): the same, but tab, line feed and carriage
 *   return are allowed.
 */

export type TextKind = 'line' | 'multiline';

/* eslint-disable no-control-regex -- matching control characters is the point */
const LINE_CONTROL = /[\u0000-\u001f\u007f]/;
const MULTILINE_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/* eslint-enable no-control-regex */
// a high surrogate not followed by a low one, or a low one not preceded by a high one
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const codePoint = (c: string) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/** Why `value` is not plain text of this kind (a sentence to follow a field's name), or null. */
export function textProblem(value: string, kind: TextKind = 'line'): string | null {
  const control = (kind === 'line' ? LINE_CONTROL : MULTILINE_CONTROL).exec(value);
  if (control) {
    const allowed = kind === 'line' ? '' : ' (only tabs and line breaks are)';
    return `must not contain control characters${allowed}: found ${codePoint(control[0])} at position ${control.index + 1}.`;
  }
  const surrogate = LONE_SURROGATE.exec(value);
  if (surrogate) {
    return `must be valid Unicode text: found a lone surrogate ${codePoint(surrogate[0])} at position ${surrogate.index + 1}.`;
  }
  return null;
}

/** Whether `value` is plain text of this kind (see `textProblem`). */
export const isPlainText = (value: string, kind: TextKind = 'line'): boolean =>
  textProblem(value, kind) === null;

/**
 * A zod string refusing what is not plain text of `kind`, checked on the value as received
 * (before any `.trim()`): chain the field's own rules after it, e.g.
 * `plainText().trim().min(1, 'Place is required.')`. `params` are `z.string`'s (its error when
 * the value is not a string at all).
 */
export function plainText(kind: TextKind = 'line', params?: Parameters<typeof z.string>[0]) {
  return z.string(params).check((ctx) => {
    const problem = textProblem(ctx.value, kind);
    if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value });
  });
}
