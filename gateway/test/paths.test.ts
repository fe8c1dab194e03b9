import { describe, expect, it } from 'vitest';
import { normaliseRequestUrl } from '../src/paths';
import { routeFor } from '../src/routes';

const url = (raw: string) => {
  const result = normaliseRequestUrl(raw);
  return result.ok ? result.url : `refused: ${result.message}`;
};

describe('request path normalisation', () => {
  it('gives every spelling of a path its one canonical form', () => {
    for (const raw of [
      '/api/login',
      '/api/%6cogin',
      '/api/%6Cogin',
      '/%61pi/login',
      '/api//login',
      '//api///login',
      '/api/./login',
      '/api/trips/../login',
      '/api/%2e/login',
      '/api/x/%2E%2E/login',
    ]) {
      expect(url(raw), raw).toBe('/api/login');
    }
  });

  it('keeps a trailing slash, which the proxy table matches as the route itself', () => {
    expect(url('/api/login/')).toBe('/api/login/');
    expect(url('/api/login//')).toBe('/api/login/');
    expect(url('/api/login/.')).toBe('/api/login/');
    expect(url('/api/login/x/..')).toBe('/api/login/');
    expect(routeFor(url('/api/login/'))?.prefix).toBe('/api/login');
    expect(url('/socket.io/?EIO=4')).toBe('/socket.io/?EIO=4');
    expect(url('//')).toBe('/');
  });

  it('keeps the query string as it is, and reserved or non-ASCII encodings encoded', () => {
    expect(url('/api/places?query=%6c//x')).toBe('/api/places?query=%6c//x');
    expect(url('/api/journal/caf%c3%a9')).toBe('/api/journal/caf%C3%A9');
    expect(url('/api/search-users/a%20b')).toBe('/api/search-users/a%20b');
    expect(url('/api/x%3Fy')).toBe('/api/x%3Fy');
    expect(url('/')).toBe('/');
  });

  it('encodes the characters URL parsers disagree on (service-kit canonicalPath)', () => {
    expect(url('/api/trips/{x}')).toBe('/api/trips/%7Bx%7D');
    expect(url('/api/conversations/{}/read')).toBe('/api/conversations/%7B%7D/read');
    expect(url('/api/trips/a|b^c`d"e<f>g[h]')).toBe('/api/trips/a%7Cb%5Ec%60d%22e%3Cf%3Eg%5Bh%5D');
    expect(url('/api/trips/a#b?x={y}')).toBe('/api/trips/a%23b?x={y}');
    expect(url('/api/trips/café')).toBe('/api/trips/caf%C3%A9');
    expect(url('/api/trips/a b')).toBe('/api/trips/a%20b');
    // the encoded form is a fixed point, and resolves like any other
    expect(url('/api/trips/%7bx%7d')).toBe('/api/trips/%7Bx%7D');
    expect(url('/api/trips/{x}/../{y}')).toBe('/api/trips/%7By%7D');
  });

  it('keeps case and semicolons: they are other paths, not spellings of ours', () => {
    expect(url('/API/LOGIN')).toBe('/API/LOGIN');
    expect(url('/api/login;jsessionid=1')).toBe('/api/login;jsessionid=1');
  });

  it('refuses encoded slashes, control characters, malformed escapes and escapes from the root', () => {
    expect(url('/api/trips%2f..%2flogin')).toMatch(/refused: .*encoded slash/);
    expect(url('/api/trips%5Clogin')).toMatch(/refused: .*encoded slash/);
    expect(url('/api/trips/..\\..\\login')).toMatch(/refused: .*backslash/);
    expect(url('/api/trips\\x')).toMatch(/refused: .*backslash/);
    expect(url('/api/login%00')).toMatch(/refused: .*control character/);
    expect(url('/api/login%0a')).toMatch(/refused: .*control character/);
    expect(url('/api/login\u0000')).toMatch(/refused: .*control character/);
    expect(url('/api/login%7F')).toMatch(/refused: .*control character/);
    expect(url('/api/{x}%')).toMatch(/refused: .*malformed/);
    expect(url('/api/%zzogin')).toMatch(/refused: .*malformed/);
    expect(url('/api/login%6')).toMatch(/refused: .*malformed/);
    expect(url('/api/../../etc/passwd')).toMatch(/refused: .*above the root/);
    expect(url('*')).toMatch(/refused: .*must start with/);
    expect(url('http://evil.example/api/login')).toMatch(/refused: .*must start with/);
  });
});
