import { request, type IncomingMessage } from 'node:http';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  filePartOverheadBytes,
  MultipartFraming,
  photosFieldName,
  TRIP_MULTIPART_LIMITS,
  tripBodyMaxBytes,
  TripLimits,
  tripTextFieldNames,
} from '@wayfarer/contracts';
import { api, signUp, type Account } from '../support/api';
import { asGateway } from '../support/identity';
import { E2E_PORTS } from '../support/stack-setup';
import { baseUrl } from '../support/browser';

/**
 * The gateway's body cap for `POST /api/trips` is derived in contracts from the trip form's
 * limits. Here the largest trip those limits allow (every text field at its size limit, 40
 * photos totalling exactly TripLimits.photosTotalMaxBytes, the longest framing a client may use)
 * is exactly the cap and goes through the real gateway to the real trips service; one byte more
 * is refused by the gateway before anything reaches the service.
 */

const CRLF = '\r\n';
const utf8 = (s: string) => Buffer.byteLength(s);

/** A boundary of the longest legal length (RFC 2046: 70 characters). */
const BOUNDARY = 'largest-trip-'.padEnd(MultipartFraming.boundaryMax, 'b');
/** A file name and a content type at the longest the framing budget allows. */
const FILE_NAME = 'photo'.padEnd(MultipartFraming.fileNameMax - '.jpg'.length, 'o') + '.jpg';
const CONTENT_TYPE = 'image/jpeg; x-pad='.padEnd(MultipartFraming.contentTypeMax, 'p');

/**
 * A real JPEG of exactly `bytes` bytes: a small image made by sharp, padded with comment (COM)
 * segments right after its start marker, so any decoder still reads it.
 */
async function jpegOfSize(bytes: number): Promise<Buffer> {
  const image = await sharp({
    create: { width: 48, height: 32, channels: 3, background: { r: 40, g: 140, b: 110 } },
  })
    .jpeg()
    .toBuffer();
  const segments: Buffer[] = [];
  let missing = bytes - image.length;
  const MAX_SEGMENT = 4 + 65533; // marker, length, at most 65533 bytes of comment
  while (missing > 0) {
    let size = Math.min(MAX_SEGMENT, missing);
    if (missing - size > 0 && missing - size < 4) size = missing - 4; // leave room for one more
    if (size < 4) throw new Error(`cannot pad a JPEG by ${missing} bytes`);
    const segment = Buffer.alloc(size, 0x20);
    segment.writeUInt16BE(0xfffe, 0);
    segment.writeUInt16BE(size - 2, 2);
    segments.push(segment);
    missing -= size;
  }
  const out = Buffer.concat([image.subarray(0, 2), ...segments, image.subarray(2)]);
  expect(out.length).toBe(bytes);
  return out;
}

/** A text value of exactly `bytes` UTF-8 bytes that the trip schema accepts for `name`. */
function largestValue(name: string, bytes: number): string {
  const key = /\[(\w+)\]$/.exec(name)?.[1] ?? name;
  const pad = (s: string) => s + ' '.repeat(bytes - utf8(s)); // names are trimmed
  if (key === 'story') return '€'.repeat(TripLimits.storyMax); // 3 bytes each: the largest story
  if (key === 'startDate' || key === 'endDate') return pad('2026-04-01');
  if (key === 'latitude' || key === 'longitude') return pad(key === 'latitude' ? '38.72' : '-9.14');
  return pad(name === 'name' ? 'The largest trip' : `Place ${name.slice(13, 15)}`);
}

/** The chunks of the body (the photo buffer is shared, not copied) and their total length. */
function largestTripBody(photo: Buffer): { chunks: Buffer[]; length: number } {
  const chunks: Buffer[] = [];
  const fieldSize = TRIP_MULTIPART_LIMITS.fieldSize;
  for (const name of tripTextFieldNames()) {
    const value = largestValue(name, fieldSize);
    expect(utf8(value), name).toBe(fieldSize);
    chunks.push(
      Buffer.from(
        `--${BOUNDARY}${CRLF}Content-Disposition: form-data; name="${name}"${CRLF}${CRLF}${value}${CRLF}`,
      ),
    );
  }
  // 40 photos, 10 on each of destinations 10 to 13 (two-digit indexes: the longest names)
  for (let i = 0; i < TripLimits.photosPerTripMax; i++) {
    const field = photosFieldName(10 + Math.floor(i / TripLimits.photosPerDestinationMax));
    const head = Buffer.from(
      `--${BOUNDARY}${CRLF}Content-Disposition: form-data; name="${field}"; filename="${FILE_NAME}"${CRLF}` +
        `Content-Type: ${CONTENT_TYPE}${CRLF}${CRLF}`,
    );
    expect(head.length + CRLF.length).toBe(filePartOverheadBytes(field));
    chunks.push(head, photo, Buffer.from(CRLF));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--${CRLF}`));
  return { chunks, length: chunks.reduce((sum, c) => sum + c.length, 0) };
}

interface Answer {
  status: number;
  json: { error?: string; message?: string; _id?: string } & Record<string, unknown>;
}

function readAnswer(res: IncomingMessage): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    res.on('data', (c: Buffer) => parts.push(c));
    res.on('error', reject);
    res.on('end', () =>
      resolve({
        status: res.statusCode ?? 0,
        json: JSON.parse(Buffer.concat(parts).toString('utf8') || '{}') as Answer['json'],
      }),
    );
  });
}

/**
 * POSTs the chunks (written as the socket drains) with a declared Content-Length of their
 * length plus `extra` bytes of multipart epilogue, which a parser ignores. With `answerFirst`,
 * sends only the headers and waits for the answer: the edge must decide on the declared length
 * alone (streaming a body into a connection the gateway closes would race its answer).
 */
function post(
  to: { url: URL; headers: Record<string, string> },
  body: { chunks: Buffer[]; length: number },
  opts: { extra?: number; answerFirst?: boolean } = {},
): Promise<Answer> {
  const extra = opts.extra ?? 0;
  return new Promise<Answer>((resolve, reject) => {
    const req = request(to.url, {
      method: 'POST',
      headers: {
        ...to.headers,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'content-length': String(body.length + extra),
      },
    });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      readAnswer(res)
        .then(resolve, reject)
        .finally(() => {
          if (opts.answerFirst) req.destroy(); // the body is never sent
        });
    });
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    if (opts.answerFirst) {
      req.flushHeaders();
      return;
    }
    void (async () => {
      for (const chunk of body.chunks) {
        if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
      }
      if (extra > 0) req.write(Buffer.alloc(extra, 0x0a));
      req.end();
    })();
  });
}

describe('the largest trip the contracts allow, through the gateway', () => {
  let owner: Account;
  let body: { chunks: Buffer[]; length: number };
  const photoBytes = TripLimits.photosTotalMaxBytes / TripLimits.photosPerTripMax;

  beforeAll(async () => {
    owner = await signUp('Heavy Packer', 'limits');
    expect(Number.isInteger(photoBytes)).toBe(true);
    expect(photoBytes).toBeLessThanOrEqual(TripLimits.photoMaxBytes);
    body = largestTripBody(await jpegOfSize(photoBytes));
  });

  /** Through the gateway, as the browser does. */
  const gateway = () => {
    const url = new URL('/api/trips', baseUrl());
    return { url, headers: { cookie: owner.header, origin: url.origin } };
  };
  /** Straight to the trips service, with what the gateway would forward (identity and proof). */
  const tripsService = () => ({
    url: new URL(`http://127.0.0.1:${E2E_PORTS.trips}/api/trips`),
    headers: asGateway('POST', '/api/trips', { userId: owner.userId }),
  });

  const myTrips = async () =>
    (await (await api('/api/mytrips', owner)).json()) as { _id: string; name: string }[];

  it('is exactly the gateway cap and is created: 20 destinations, 40 photos, 100 MiB', async () => {
    expect(body.length).toBe(tripBodyMaxBytes);
    const answer = await post(gateway(), body);
    expect(answer.status, JSON.stringify(answer.json).slice(0, 300)).toBe(201);
    const trip = answer.json as unknown as {
      _id: string;
      name: string;
      startDate: string;
      destinations: { name: string; story: string; latitude: number; photos: string[] }[];
    };
    expect(trip.name).toBe('The largest trip');
    expect(trip.startDate).toBe('2026-04-01');
    expect(trip.destinations).toHaveLength(TripLimits.destinationsMax);
    expect(trip.destinations[0]!.story).toBe('€'.repeat(TripLimits.storyMax));
    expect(trip.destinations[0]!.latitude).toBe(38.72);
    const photos = trip.destinations.flatMap((d) => d.photos);
    expect(photos).toHaveLength(TripLimits.photosPerTripMax);
    expect(trip.destinations.map((d) => d.photos.length).slice(9, 15)).toEqual([
      0, 10, 10, 10, 10, 0,
    ]);

    expect((await myTrips()).map((t) => t._id)).toContain(trip._id);
    const image = await api(photos[39]!, owner);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\//);
  });

  it('one byte over the cap is refused by the gateway with a clear 413, and nothing is created', async () => {
    // trips by id: the previous test's photos may turn from pending to ready meanwhile
    const tripIds = async () => (await myTrips()).map((t) => t._id).sort();
    const before = await tripIds();
    // the extra byte is multipart epilogue, which the service ignores (next test)
    const answer = await post(gateway(), body, { extra: 1, answerFirst: true });
    expect(answer.status).toBe(413);
    expect(answer.json).toEqual({
      error: 'payload_too_large',
      message: `The request body is too large: this route accepts at most ${(tripBodyMaxBytes / 1048576).toFixed(1)} MiB (${tripBodyMaxBytes} bytes).`,
    });
    expect(await tripIds()).toEqual(before);
  });

  it('that same body is one the trips service itself accepts: the edge alone refuses it', async () => {
    const answer = await post(tripsService(), body, { extra: 1 });
    expect(answer.status, JSON.stringify(answer.json).slice(0, 300)).toBe(201);
    expect((await myTrips()).map((t) => t._id)).toContain(answer.json._id);
  });
});
