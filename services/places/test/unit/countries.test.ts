import { describe, expect, it } from 'vitest';
import { CountryMatcher, countryName } from '../../src/domain/countries';

describe('countryName', () => {
  it('gives the English name of a code, without the network', () => {
    expect(countryName('FR')).toBe('France');
    expect(countryName('DE')).toBe('Germany');
    expect(countryName('US')).toBe('United States');
  });

  it('returns anything it does not know as it is', () => {
    expect(countryName('QQ')).toBe('QQ');
    expect(countryName('not a code')).toBe('not a code');
  });
});

describe('CountryMatcher', () => {
  const matcher = new CountryMatcher(['FR', 'US', 'GB', 'AE', 'CD', 'CG', 'TR', 'CA']);
  const match = (text: string) => [...matcher.match(text)].sort();

  it('takes a two-letter code in any case', () => {
    expect(match('fr')).toEqual(['FR']);
    expect(match(' US ')).toEqual(['US']);
    expect(match('u.s.')).toEqual(['US']);
  });

  it('takes an English name or the start of one, accents and case aside', () => {
    expect(match('France')).toEqual(['FR']);
    expect(match('united')).toEqual(['AE', 'GB', 'US']);
    expect(match('congo')).toEqual(['CD', 'CG']);
    expect(match('Türkiye')).toEqual(['TR']);
  });

  it('takes common aliases', () => {
    expect(match('usa')).toEqual(['US']);
    expect(match('uk')).toEqual(['GB']);
    expect(match('england')).toEqual(['GB']);
    expect(match('turkey')).toEqual(['TR']);
  });

  it('matches nothing for unknown text, blanks, or countries not in the data', () => {
    expect(match('atlantis')).toEqual([]);
    expect(match('  ')).toEqual([]);
    expect(match('de')).toEqual([]); // Germany is not in this list; no name starts with "de"
  });
});
