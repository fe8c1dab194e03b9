import { describe, expect, it } from 'vitest';
import { normalise } from '../../src/domain/normalise';

describe('normalise', () => {
  it('lower-cases and strips accents and other diacritics', () => {
    expect(normalise('São Paulo')).toBe('sao paulo');
    expect(normalise('ZÜRICH')).toBe('zurich');
    expect(normalise('Saint-Étienne')).toBe('saint etienne');
    expect(normalise('Bağcılar')).toBe('bagcilar');
    expect(normalise('İzmir')).toBe('izmir');
  });

  it('folds letters that do not decompose', () => {
    expect(normalise('Łódź')).toBe('lodz');
    expect(normalise('Straße')).toBe('strasse');
    expect(normalise('Tórshavn Øresund Æbeltoft')).toBe('torshavn oresund aebeltoft');
  });

  it('drops apostrophes, quotes and periods and turns other punctuation into one space', () => {
    expect(normalise("N'Djamena")).toBe('ndjamena');
    expect(normalise('N’Djamena')).toBe('ndjamena');
    expect(normalise('Washington, D.C.')).toBe('washington dc');
    expect(normalise('Zürich (Kreis 11)')).toBe('zurich kreis 11');
    expect(normalise('Stoke-on-Trent')).toBe('stoke on trent');
  });

  it('collapses and trims white space', () => {
    expect(normalise('  new \t  york  ')).toBe('new york');
  });

  it('keeps letters of other scripts', () => {
    expect(normalise('Бережани')).toBe('бережани');
  });

  it('leaves nothing of punctuation or emoji', () => {
    expect(normalise('...')).toBe('');
    expect(normalise('🙂🌍')).toBe('');
    expect(normalise(' - , ; ')).toBe('');
  });
});
