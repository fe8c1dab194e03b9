import { AuthLimits } from './auth';
import { IMPORT_FIELD, ImportLimits } from './portability';
import { TripLimits } from './trips';

/**
 * Request body sizes, derived from the domain limits: the multipart forms' field lists and
 * per-field sizes (which the services give their multipart parser), and from them the largest
 * body a legal request can have. The gateway refuses a declared Content-Length above these, the
 * Ingress' body size is the largest of them, so a request the services accept always gets through
 * the edge and nothing much larger ever reaches them.
 */

const KiB = 1024;
const MiB = 1024 * KiB;

/** Images the services decode (they type uploads by their bytes, never by the declared type). */
export const ImageTypes = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
export type ImageType = (typeof ImageTypes)[number];
/** File extensions of ImageTypes, for files a browser reports with no type. */
export const ImageExtensions: Readonly<Record<string, ImageType>> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  jfif: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
};

/**
 * A client-side pre-check (the services decide by the bytes): one of ImageTypes by its MIME
 * type, or by its extension when the browser reports no type.
 */
export function isAcceptedImageFile(file: { name: string; type: string }): boolean {
  const type = file.type.trim().toLowerCase();
  if (type) return (ImageTypes as readonly string[]).includes(type);
  const dot = file.name.lastIndexOf('.');
  return dot > 0 && Object.hasOwn(ImageExtensions, file.name.slice(dot + 1).toLowerCase());
}

/** The `accept` attribute of a file input taking ImageTypes. */
export const IMAGE_ACCEPT = ImageTypes.join(',');

/**
 * UTF-8 bytes per UTF-16 code unit, at most: zod's `.max(n)` counts code units, a code unit of
 * the Basic Multilingual Plane takes up to 3 bytes (a surrogate pair: 4 bytes for 2 units), and a
 * browser's `\n` -> `\r\n` in form values takes 2.
 */
export const UTF8_BYTES_PER_CHAR_MAX = 3;
/** JSON text bytes per UTF-16 code unit, at most (`\u001f`, or a lone surrogate `\ud800`). */
export const JSON_BYTES_PER_CHAR_MAX = 6;

/** Multipart framing (RFC 7578 / RFC 2046) a legal client may use, per part. */
export const MultipartFraming = {
  /** RFC 2046 section 5.1.1: a boundary is 1 to 70 characters. */
  boundaryMax: 70,
  /** The parser's field name limit (busboy `fieldNameSize`; a longer name is refused). */
  fieldNameMax: 100,
  /**
   * A file name: 255 bytes (the longest on common file systems), each of which a browser may
   * percent-escape into 3 (`"` -> `%22`, CR, LF).
   */
  fileNameMax: 255 * 3,
  /** RFC 6838 section 4.2: a media type's type and subtype are at most 127 characters each. */
  contentTypeMax: 127 + 1 + 127,
} as const;

const CRLF = 2;
const delimiterBytes = 2 + MultipartFraming.boundaryMax + CRLF; // --boundary\r\n
const dispositionBytes = (name: string) =>
  `Content-Disposition: form-data; name="${name}"`.length + CRLF;

/** Bytes of one text part holding `valueMaxBytes`: delimiter, its header, value, CRLF. */
export function textPartMaxBytes(name: string, valueMaxBytes: number): number {
  // A browser sends no Content-Type for text values.
  return delimiterBytes + dispositionBytes(name) + CRLF + valueMaxBytes + CRLF;
}

/** Bytes of one file part's framing (without its content): a file name and a content type. */
export function filePartOverheadBytes(name: string): number {
  const disposition =
    dispositionBytes(name) + '; filename=""'.length + MultipartFraming.fileNameMax;
  const contentType = 'Content-Type: '.length + MultipartFraming.contentTypeMax + CRLF;
  return delimiterBytes + disposition + contentType + CRLF + CRLF;
}

/** The closing delimiter, `--boundary--\r\n`. */
export const multipartCloseBytes = 2 + MultipartFraming.boundaryMax + 2 + CRLF;

/** Limits for the multipart parser of one form (busboy's names). */
export interface MultipartParserLimits {
  fieldNameSize: number;
  fieldSize: number;
  fields: number;
  files: number;
  fileSize: number;
  parts: number;
  headerPairs: number;
}

// ----------------------------------------------------------------------- POST /api/register

/** Text fields of `POST /api/register`; anything else is refused. */
export const REGISTER_TEXT_FIELDS = ['name', 'email', 'password'] as const;
/** The one file field of `POST /api/register`. */
export const REGISTER_PICTURE_FIELD = 'profilePicture';

/** The largest legal register text value: the longest of RegisterFields' maxima, in UTF-8. */
const registerFieldMaxBytes =
  UTF8_BYTES_PER_CHAR_MAX *
  Math.max(AuthLimits.nameMax, AuthLimits.emailMax, AuthLimits.passwordMax);

/**
 * The registration form's multipart limits (auth gives them to its parser). Field and part
 * counts keep a little slack so that an unexpected field is answered by name, not by a count.
 */
export const REGISTER_MULTIPART_LIMITS: MultipartParserLimits = {
  fieldNameSize: MultipartFraming.fieldNameMax,
  fieldSize: registerFieldMaxBytes,
  fields: 10,
  files: 1,
  fileSize: AuthLimits.profilePictureMaxBytes,
  parts: 12,
  headerPairs: 20,
};

/** The largest legal `POST /api/register` body: three text fields at their maximum and a picture. */
export const registerBodyMaxBytes =
  REGISTER_TEXT_FIELDS.reduce(
    (sum, name) => sum + textPartMaxBytes(name, REGISTER_MULTIPART_LIMITS.fieldSize),
    0,
  ) +
  filePartOverheadBytes(REGISTER_PICTURE_FIELD) +
  AuthLimits.profilePictureMaxBytes +
  multipartCloseBytes;

// -------------------------------------------------------------------------- POST /api/trips

/** Text fields of a trip (`name`, `startDate`, `endDate`). */
export const TRIP_FIELDS = ['name', 'startDate', 'endDate'] as const;
/** Text fields of one `destinations[i][...]` group. */
export const DESTINATION_FIELDS = [
  'name',
  'startDate',
  'endDate',
  'latitude',
  'longitude',
  'story',
] as const;

export const destinationFieldName = (index: number, key: (typeof DESTINATION_FIELDS)[number]) =>
  `destinations[${index}][${key}]`;
export const photosFieldName = (index: number) => `photos[${index}]`;

/** Every text field name of the largest trip form: the trip's, then each destination's. */
export function tripTextFieldNames(destinations: number = TripLimits.destinationsMax): string[] {
  const names: string[] = [...TRIP_FIELDS];
  for (let i = 0; i < destinations; i++) {
    for (const key of DESTINATION_FIELDS) names.push(destinationFieldName(i, key));
  }
  return names;
}

/**
 * The largest legal trip text value: a story of TripLimits.storyMax characters in UTF-8 (the
 * other fields are shorter; the parser refuses any value above this as "too long").
 */
const tripFieldMaxBytes =
  UTF8_BYTES_PER_CHAR_MAX *
  Math.max(TripLimits.nameMax, TripLimits.destinationNameMax, TripLimits.storyMax);

/**
 * The trip form's multipart limits (trips gives them to its parser): the legal field and photo
 * counts, plus slack in the counts so an unexpected field is answered by name.
 */
export const TRIP_MULTIPART_LIMITS: MultipartParserLimits = {
  fieldNameSize: MultipartFraming.fieldNameMax,
  fieldSize: tripFieldMaxBytes,
  fields: TRIP_FIELDS.length + TripLimits.destinationsMax * DESTINATION_FIELDS.length + 10,
  files: TripLimits.photosPerTripMax,
  fileSize: TripLimits.photoMaxBytes,
  parts:
    TRIP_FIELDS.length +
    TripLimits.destinationsMax * DESTINATION_FIELDS.length +
    TripLimits.photosPerTripMax +
    20,
  headerPairs: 20,
};

/** Total photo bytes of the largest legal trip. */
export const tripPhotosMaxBytes = Math.min(
  TripLimits.photosTotalMaxBytes,
  TripLimits.photosPerTripMax * TripLimits.photoMaxBytes,
);

/**
 * The largest legal `POST /api/trips` body: every text field of TripLimits.destinationsMax
 * destinations at its maximum, TripLimits.photosPerTripMax photo parts (named after the
 * highest destination index) and photos totalling TripLimits.photosTotalMaxBytes.
 */
export const tripBodyMaxBytes =
  tripTextFieldNames().reduce(
    (sum, name) => sum + textPartMaxBytes(name, TRIP_MULTIPART_LIMITS.fieldSize),
    0,
  ) +
  TripLimits.photosPerTripMax *
    filePartOverheadBytes(photosFieldName(TripLimits.destinationsMax - 1)) +
  tripPhotosMaxBytes +
  multipartCloseBytes;

// ------------------------------------------------------------------------- POST /api/import

/** The import form's multipart limits: one file part, `ImportLimits.fileMaxBytes`. */
export const IMPORT_MULTIPART_LIMITS: MultipartParserLimits = {
  fieldNameSize: MultipartFraming.fieldNameMax,
  fieldSize: 1024,
  fields: 4,
  files: 1,
  fileSize: ImportLimits.fileMaxBytes,
  parts: 6,
  headerPairs: 20,
};

/** The largest legal `POST /api/import` body: one file part at `ImportLimits.fileMaxBytes`. */
export const importBodyMaxBytes =
  filePartOverheadBytes(IMPORT_FIELD) + ImportLimits.fileMaxBytes + multipartCloseBytes;

// ------------------------------------------------------------------------------ JSON bodies

/**
 * The largest `JSON.stringify` of a flat object of strings of at most the given lengths:
 * braces, commas, quoted keys and values with every character escaped at its longest.
 */
export function jsonObjectMaxBytes(fields: Readonly<Record<string, number>>): number {
  const entries = Object.entries(fields);
  const body = entries.reduce(
    (sum, [key, max]) => sum + `"${key}":""`.length + JSON_BYTES_PER_CHAR_MAX * max,
    0,
  );
  return 2 + body + Math.max(0, entries.length - 1);
}

/** The largest legal `POST /api/login` body (LoginBody). */
export const loginBodyMaxBytes = jsonObjectMaxBytes({
  email: AuthLimits.emailMax,
  password: AuthLimits.passwordMax,
});

/** The largest legal `POST /api/password` body (ChangePasswordBody). */
export const passwordBodyMaxBytes = jsonObjectMaxBytes({
  currentPassword: AuthLimits.passwordMax,
  newPassword: AuthLimits.passwordMax,
});

/** The largest legal `DELETE /api/account` body (DeleteAccountBody). */
export const accountBodyMaxBytes = jsonObjectMaxBytes({ password: AuthLimits.passwordMax });

/**
 * Every other route's body: small JSON documents. The largest today is a journal
 * (JournalLimits.contentMax characters; contracts' tests check it fits).
 */
export const DEFAULT_BODY_MAX_BYTES = 256 * KiB;

/** The body caps the gateway applies per route, in bytes. */
export const BodyLimits = {
  default: DEFAULT_BODY_MAX_BYTES,
  login: loginBodyMaxBytes,
  password: passwordBodyMaxBytes,
  account: accountBodyMaxBytes,
  register: registerBodyMaxBytes,
  trip: tripBodyMaxBytes,
  import: importBodyMaxBytes,
} as const;

/** The largest body any route accepts: what a proxy in front of the gateway must let through. */
export const largestBodyMaxBytes = Math.max(...Object.values(BodyLimits));

/** `largestBodyMaxBytes` rounded up to whole MiB (nginx's `m` unit is 1024 * 1024 bytes). */
export const largestBodyMaxMiB = Math.ceil(largestBodyMaxBytes / MiB);
