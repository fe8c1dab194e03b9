import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalPath } from '../src/request-path';

/** Every ASCII character, and a few beyond, each inside a path segment. */
const EVERY_CHARACTER = [
  ...Array.from({ length: 128 }, (_, code) => String.fromCharCode(code)),
  'é',
  '\u00ff',
  '€',
  '😀',
  '\ud800', // a lone surrogate
];
const inSegment = (char: string) => `/api/trips/a${char}b`;

describe('canonicalPath', () => {
  it('keeps a path of unreserved characters, sub-delims, ":", "@" and "/" as it is', () => {
    for (const path of ['/api/mytrips', "/a/b-c._~!$&'()*+,;=:@/", '/', '', '/api/login/']) {
      expect(canonicalPath(path)).toBe(path);
    }
  });

  it('encodes what URL parsers disagree on, as UTF-8 with upper-case hex', () => {
    const cases: [string, string][] = [
      ['/api/trips/{x}', '/api/trips/%7Bx%7D'],
      ['/api/conversations/{}/read', '/api/conversations/%7B%7D/read'],
      ['/a|b^c`d', '/a%7Cb%5Ec%60d'],
      ['/a"b<c>d', '/a%22b%3Cc%3Ed'],
      ['/a[b]c', '/a%5Bb%5Dc'],
      ['/a b', '/a%20b'],
      ['/a#b', '/a%23b'],
      ['/a\\b', '/a%5Cb'],
      ['/a\u0000b\u007f', '/a%00b%7F'],
      ['/é', '/%C3%A9'],
      ['/😀', '/%F0%9F%98%80'],
      ['/\ud800', '/%EF%BF%BD'],
    ];
    for (const [path, canonical] of cases) expect(canonicalPath(path)).toBe(canonical);
  });

  it('decodes escaped unreserved characters only, and upper-cases the hex of the rest', () => {
    expect(canonicalPath('/api/%6Cogin')).toBe('/api/login');
    expect(canonicalPath('/a/%2e%2E/b')).toBe('/a/../b');
    expect(canonicalPath('/a%7e%2d%5F')).toBe('/a~-_');
    expect(canonicalPath('/%c3%a9')).toBe('/%C3%A9');
    // not decoded: they would mean something else decoded (a separator, a sub-delim)
    expect(canonicalPath('/a%2fb%3b%2C%40%25')).toBe('/a%2Fb%3B%2C%40%25');
    expect(canonicalPath('/%7b%7D')).toBe('/%7B%7D');
  });

  it('encodes a "%" that starts no escape', () => {
    expect(canonicalPath('/a%')).toBe('/a%25');
    expect(canonicalPath('/a%zz')).toBe('/a%25zz');
    expect(canonicalPath('/a%4')).toBe('/a%254');
    expect(canonicalPath('/%E0%A4%A')).toBe('/%E0%A4%25A');
  });

  it('is idempotent', () => {
    for (const char of EVERY_CHARACTER) {
      const once = canonicalPath(inSegment(char));
      expect(canonicalPath(once)).toBe(once);
    }
    for (const path of ['/a%zz', '/%e0%a4%a', '/a%2525', '/{%7b}']) {
      expect(canonicalPath(canonicalPath(path))).toBe(canonicalPath(path));
    }
  });

  it('is what the WHATWG URL parser gives back as it is, and of what it encodes', () => {
    for (const char of EVERY_CHARACTER) {
      // a separator to it, or dropped by it (tab and line breaks anywhere in a URL)
      if ('\\#?\t\n\r'.includes(char)) continue;
      const path = inSegment(char);
      const canonical = canonicalPath(path);
      // reply-from's and the ws client's `new URL`: the canonical form goes through unchanged
      expect(new URL(canonical, 'http://service.test').pathname).toBe(canonical);
      // and where it encodes a raw character, the canonical form of its output is the same
      expect(canonicalPath(new URL(path, 'http://service.test').pathname)).toBe(canonical);
    }
  });

  describe("through Node's HTTP parser", () => {
    let server: Server;
    const received: string[] = [];
    beforeAll(async () => {
      server = createServer((req, res) => {
        received.push(req.url ?? '');
        res.end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    /** The request target as Node's server reads it from the request line. */
    const sendRaw = (target: string) =>
      new Promise<string>((resolve, reject) => {
        const { port } = server.address() as AddressInfo;
        const socket = connect(port, '127.0.0.1', () =>
          socket.end(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, 'latin1'),
        );
        let answer = '';
        socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
        socket.on('end', () =>
          answer.startsWith('HTTP/1.1 200') ? resolve(received.at(-1)!) : reject(new Error(answer)),
        );
        socket.on('error', reject);
      });

    it('arrives as it was sent (the service receives the path the gateway signed)', async () => {
      for (const char of EVERY_CHARACTER) {
        const canonical = canonicalPath(inSegment(char));
        expect(await sendRaw(canonical)).toBe(canonical);
      }
    });
  });
});
