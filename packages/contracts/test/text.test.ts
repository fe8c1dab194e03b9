import { describe, expect, it } from 'vitest';
import {
  DestinationInput,
  endsBeforeStart,
  isPlainText,
  plainText,
  SendMessage,
  textProblem,
  TripDateMessages,
  TripInput,
} from '../src';

describe('textProblem: the plain-text rule', () => {
  it.each([
    ['a NUL', 'Par\u0000is', 'U+0000 at position 4'],
    ['a bell', '\u0007', 'U+0007 at position 1'],
    ['an escape', 'a\u001b[31m', 'U+001B at position 2'],
    ['a DEL', 'Rome\u007f', 'U+007F at position 5'],
    ['a tab', 'a\tb', 'U+0009 at position 2'],
    ['a line feed', 'a\nb', 'U+000A at position 2'],
    ['a carriage return', 'a\rb', 'U+000D at position 2'],
  ])('refuses %s in one line of text, saying which and where', (_name, value, where) => {
    expect(textProblem(value)).toBe(`must not contain control characters: found ${where}.`);
  });

  it.each([
    ['a lone high surrogate', 'x\ud83c', 'U+D83C at position 2'],
    ['a lone low surrogate', '\udf0d!', 'U+DF0D at position 1'],
    ['two high surrogates', '\ud83c\ud83c\udf0d', 'U+D83C at position 1'],
  ])('refuses %s in any text', (_name, value, where) => {
    for (const kind of ['line', 'multiline'] as const) {
      expect(textProblem(value, kind)).toBe(
        `must be valid Unicode text: found a lone surrogate ${where}.`,
      );
    }
  });

  it('takes tabs and line breaks in multi-line text only, and no other control', () => {
    expect(isPlainText('Day one:\tFlåm\r\nDay two:\nBergen', 'multiline')).toBe(true);
    expect(textProblem('a\u0000\n', 'multiline')).toBe(
      'must not contain control characters (only tabs and line breaks are): found U+0000 at position 2.',
    );
    expect(isPlainText('\u000b', 'multiline')).toBe(false);
    expect(isPlainText('\u000c', 'multiline')).toBe(false);
  });

  it('takes any other Unicode: accents, emoji (pairs), C1-free symbols, U+FFFD', () => {
    for (const value of ['Zoë Ångström', '🌍 Kyōto', 'Ελλάδα', '\ufffd', '', 'a\u00a0b']) {
      expect(isPlainText(value), value).toBe(true);
    }
  });
});

describe('plainText: the zod helper every schema uses', () => {
  it('checks the value as received, before the field rules chained after it', () => {
    const place = plainText('line', { error: 'Place is required.' })
      .trim()
      .min(1, 'Place is required.');
    expect(place.parse('  Rome ')).toBe('Rome');
    expect(place.safeParse(' Rome\n').error?.issues.map((i) => i.message)).toEqual([
      'must not contain control characters: found U+000A at position 6.',
    ]);
    expect(place.safeParse(3).error?.issues.map((i) => i.message)).toEqual(['Place is required.']);
  });

  it('is in the schemas: a trip story is multi-line, a destination name one line', () => {
    const destination = {
      name: 'Oslo',
      startDate: '2024-01-01',
      endDate: '2024-01-02',
      latitude: 59.9,
      longitude: 10.7,
      story: 'Line one\r\nLine two',
    };
    expect(DestinationInput.safeParse(destination).success).toBe(true);
    expect(DestinationInput.safeParse({ ...destination, story: 'x\u0000' }).success).toBe(false);
    expect(DestinationInput.safeParse({ ...destination, name: 'Os\nlo' }).success).toBe(false);
    expect(SendMessage.safeParse({ to: 'u2', text: 'hi\nthere' }).success).toBe(true);
    expect(SendMessage.safeParse({ to: 'u2\u0000', text: 'hi' }).success).toBe(false);
  });
});

describe('a range that ends before it starts', () => {
  const trip = { name: '', startDate: '2024-05-10', endDate: '2024-05-09', destinations: [] };

  it('is refused, with the message the add-trip form shows', () => {
    expect(endsBeforeStart(trip)).toBe(true);
    expect(TripInput.safeParse(trip).error?.issues).toEqual([
      expect.objectContaining({ path: ['endDate'], message: TripDateMessages.endBeforeStart }),
    ]);
  });

  it('is checked only once both dates are real ones', () => {
    expect(
      TripInput.safeParse({ ...trip, startDate: '2024-02-30' }).error?.issues.map((i) => i.message),
    ).toEqual(['must be a real date']);
  });

  it('takes a one-day range, and compares timestamps by their dates', () => {
    expect(endsBeforeStart({ startDate: '2024-05-10', endDate: '2024-05-10' })).toBe(false);
    expect(
      TripInput.safeParse({ ...trip, startDate: '2024-05-10T20:00Z', endDate: '2024-05-10T01:00Z' })
        .success,
    ).toBe(true);
  });
});
