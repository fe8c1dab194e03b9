import { describe, expect, it } from 'vitest';
import {
  AuthLimits,
  BodyLimits,
  DEFAULT_BODY_MAX_BYTES,
  DestinationInput,
  JournalLimits,
  jsonObjectMaxBytes,
  largestBodyMaxBytes,
  largestBodyMaxMiB,
  loginBodyMaxBytes,
  MultipartFraming,
  REGISTER_MULTIPART_LIMITS,
  REGISTER_TEXT_FIELDS,
  RegisterFields,
  registerBodyMaxBytes,
  TRIP_MULTIPART_LIMITS,
  tripBodyMaxBytes,
  TripInput,
  TripLimits,
  tripPhotosMaxBytes,
  tripTextFieldNames,
} from '../src';

const MiB = 1024 * 1024;
const utf8 = (s: string) => new TextEncoder().encode(s).length;

/** How many bytes a real client (undici's FormData, as a browser) sends for `form`. */
async function encodedBytes(form: FormData): Promise<number> {
  return (await new Response(form).arrayBuffer()).byteLength;
}

/** A file name of 255 bytes, the longest most file systems allow. */
const longestFileName = `${'n'.repeat(255 - '.jpg'.length)}.jpg`;

/** Text values at the parser's size limit that the schemas still accept. */
function largestTripValue(name: string, fieldSize: number): string {
  const key = /\[(\w+)\]$/.exec(name)?.[1] ?? name;
  const pad = (s: string) => s + ' '.repeat(fieldSize - utf8(s));
  switch (key) {
    case 'story':
      return '€'.repeat(TripLimits.storyMax); // 3 bytes each
    case 'startDate':
    case 'endDate':
      return pad('2026-04-01'); // surrounding blanks are trimmed
    case 'latitude':
    case 'longitude':
      return pad('45.5');
    default:
      return pad('A'.repeat(TripLimits.nameMax));
  }
}

describe('body caps derived from the forms', () => {
  it('trip: the largest legal form is exactly as large as the multipart limits allow', () => {
    const size = TRIP_MULTIPART_LIMITS.fieldSize;
    const names = tripTextFieldNames();
    expect(names).toHaveLength(3 + TripLimits.destinationsMax * 6);
    const values = Object.fromEntries(names.map((n) => [n, largestTripValue(n, size)]));
    for (const [name, value] of Object.entries(values)) expect(utf8(value), name).toBe(size);

    // every value at the size limit is legal
    const destinations = Array.from({ length: TripLimits.destinationsMax }, (_, i) =>
      Object.fromEntries(
        ['name', 'startDate', 'endDate', 'latitude', 'longitude', 'story'].map((k) => [
          k,
          values[`destinations[${i}][${k}]`],
        ]),
      ),
    );
    const trip = TripInput.safeParse({
      name: values.name,
      startDate: values.startDate,
      endDate: values.endDate,
      destinations,
    });
    expect(trip.error).toBeUndefined();
    // and one character more of story is not
    const longer = DestinationInput.safeParse({
      ...destinations[0],
      story: `${values['destinations[0][story]']}€`,
    });
    expect(longer.success).toBe(false);
  });

  it('trip: the photos total decides, and a real client sending the largest trip fits the cap', async () => {
    expect(TripLimits.photosTotalMaxBytes).toBe(100 * MiB);
    expect(tripPhotosMaxBytes).toBe(TripLimits.photosTotalMaxBytes);
    expect(TripLimits.photosTotalMaxBytes).toBeLessThan(
      TripLimits.photosPerTripMax * TripLimits.photoMaxBytes,
    );

    const size = TRIP_MULTIPART_LIMITS.fieldSize;
    const form = new FormData();
    for (const name of tripTextFieldNames()) form.append(name, largestTripValue(name, size));
    // 40 one-byte photos on two-digit destinations (the longest field names); their content is
    // added below as the rest of the photos' total, so the test does not hold 100 MiB
    for (let i = 0; i < TripLimits.photosPerTripMax; i++) {
      const index =
        TripLimits.destinationsMax - 1 - Math.floor(i / TripLimits.photosPerDestinationMax);
      form.append(`photos[${index}]`, new Blob(['x'], { type: 'image/jpeg' }), longestFileName);
    }
    const sent = (await encodedBytes(form)) - TripLimits.photosPerTripMax + tripPhotosMaxBytes;
    expect(sent).toBeLessThanOrEqual(tripBodyMaxBytes);
    // the slack is only the framing a client may use beyond undici's (a 70-character boundary,
    // percent-escaped file names, a long content type): a few kilobytes per part, no more
    expect(tripBodyMaxBytes - sent).toBeLessThan(
      (tripTextFieldNames().length + TripLimits.photosPerTripMax) *
        (MultipartFraming.boundaryMax +
          MultipartFraming.fileNameMax +
          MultipartFraming.contentTypeMax),
    );
  });

  it('register: a real client sending the largest legal form fits the cap', async () => {
    const size = REGISTER_MULTIPART_LIMITS.fieldSize;
    expect(size).toBe(3 * AuthLimits.passwordMax);
    const values = {
      name: 'A'.repeat(AuthLimits.nameMax).padEnd(size, ' '),
      email: `${'a'.repeat(60)}@example.com`.padEnd(size, ' '),
      password: '€'.repeat(AuthLimits.passwordMax),
    };
    expect(RegisterFields.safeParse(values).error).toBeUndefined();
    const form = new FormData();
    for (const name of REGISTER_TEXT_FIELDS) {
      expect(utf8(values[name]), name).toBe(size);
      form.append(name, values[name]);
    }
    form.append('profilePicture', new Blob(['x'], { type: 'image/png' }), longestFileName);
    const sent = (await encodedBytes(form)) - 1 + AuthLimits.profilePictureMaxBytes;
    expect(sent).toBeLessThanOrEqual(registerBodyMaxBytes);
    expect(registerBodyMaxBytes - sent).toBeLessThan(
      4 *
        (MultipartFraming.boundaryMax +
          MultipartFraming.fileNameMax +
          MultipartFraming.contentTypeMax),
    );
  });

  it('login: exactly the longest JSON.stringify of a legal body', () => {
    // control characters are escaped as \u00XX: the longest a character can be in JSON
    const body = JSON.stringify({
      email: '\u0001'.repeat(AuthLimits.emailMax),
      password: '\u0001'.repeat(AuthLimits.passwordMax),
    });
    expect(utf8(body)).toBe(loginBodyMaxBytes);
  });

  it('default: the largest journal fits', () => {
    const journal = jsonObjectMaxBytes({
      destinationId: 100,
      content: JournalLimits.contentMax,
      date: 64,
    });
    expect(journal).toBeLessThanOrEqual(DEFAULT_BODY_MAX_BYTES);
  });

  it('names the largest cap and its MiB for proxies in front of the gateway', () => {
    // the import's one file (ImportLimits.fileMaxBytes) is the largest body now
    expect(largestBodyMaxBytes).toBe(BodyLimits.import);
    expect(largestBodyMaxMiB).toBe(Math.ceil(BodyLimits.import / MiB));
    // far below the 200 MiB the gateway used to allow, above the photos alone
    expect(tripBodyMaxBytes).toBeGreaterThan(TripLimits.photosTotalMaxBytes);
    expect(tripBodyMaxBytes).toBeLessThan(TripLimits.photosTotalMaxBytes + 5 * MiB);
  });
});
