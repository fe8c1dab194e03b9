import { TripLimits } from '@wayfarer/contracts';
import {
  DESTINATION_FIELDS,
  Messages,
  OPTIONAL_TRIP_FIELDS,
  TRIP_FIELDS,
  type DestinationField,
  type TripField,
} from './limits';
import { InvalidTripError } from './errors';

/**
 * The multipart field names of `POST /api/trips`: `name`, `startDate`,
 * `endDate`, `visibility` (optional), `destinations[i][name|startDate|endDate|latitude|longitude|story]` and files
 * `photos[i]` (the photos of destination i; the field name may repeat, one part per file).
 */
export type FieldRef =
  | { kind: 'trip'; key: TripField }
  | { kind: 'destination'; index: number; key: DestinationField }
  | { kind: 'photos'; index: number };

const DESTINATION_FIELD = /^destinations\[(\d+)\]\[([A-Za-z]+)\]$/;
const PHOTOS_FIELD = /^photos\[(\d+)\]$/;

const badRequest = (message: string) => new InvalidTripError(message);

function isOneOf<T extends string>(list: readonly T[], value: string): value is T {
  return (list as readonly string[]).includes(value);
}

/** A destination index: canonical decimal (no sign, no leading zero) below destinationsMax. */
function parseIndex(digits: string, field: string): number {
  if (digits.length > 1 && digits.startsWith('0')) {
    throw badRequest(`Unexpected field "${field}": indexes are written without leading zeros.`);
  }
  const index = digits.length > 6 ? Number.POSITIVE_INFINITY : Number(digits);
  if (index >= TripLimits.destinationsMax) {
    throw badRequest(`${Messages.tooManyDestinations} "${field}" is out of range.`);
  }
  return index;
}

/** Parses one field name; anything that is not part of the form is refused (InvalidTripError). */
export function parseFieldName(name: string): FieldRef {
  if (typeof name !== 'string' || name === '') {
    throw badRequest('The form has a part without a field name.');
  }
  if (isOneOf(TRIP_FIELDS, name) || isOneOf(OPTIONAL_TRIP_FIELDS, name)) {
    return { kind: 'trip', key: name };
  }
  const dest = DESTINATION_FIELD.exec(name);
  if (dest) {
    const key = dest[2]!;
    if (!isOneOf(DESTINATION_FIELDS, key)) throw badRequest(`Unexpected field "${name}".`);
    return { kind: 'destination', index: parseIndex(dest[1]!, name), key };
  }
  const photos = PHOTOS_FIELD.exec(name);
  if (photos) return { kind: 'photos', index: parseIndex(photos[1]!, name) };
  throw badRequest(`Unexpected field "${name}".`);
}

export type TripFields = Partial<Record<TripField, string>>;
export type DestinationFields = Partial<Record<DestinationField, string>>;

/** The text of the form grouped by destination, and how many photos each destination has. */
export interface GroupedTripForm {
  trip: TripFields;
  destinations: DestinationFields[];
  photoCounts: number[];
}

/**
 * Collects the parts of the form in any order (a browser sends them in the order the client
 * appended them) and groups them. Throws an InvalidTripError at the first part that cannot belong
 * to a valid form, so a bad request is refused before its photos are read; `finish` checks what
 * can only be known at the end (no gaps in the destination indexes, no photos for a missing
 * destination).
 */
export class TripFormCollector {
  private readonly trip: TripFields = {};
  private readonly destinations = new Map<number, DestinationFields>();
  private readonly photoCounts = new Map<number, number>();
  private photoTotal = 0;

  /** Adds a text field. */
  field(name: string, value: string): void {
    const ref = parseFieldName(name);
    if (ref.kind === 'photos') {
      throw badRequest(`${name} must be an image file.`);
    }
    const group =
      ref.kind === 'trip'
        ? this.trip
        : (this.destinations.get(ref.index) ??
          this.destinations.set(ref.index, {}).get(ref.index)!);
    if (group[ref.key as keyof typeof group] !== undefined) {
      throw badRequest(`The ${name} field was sent more than once.`);
    }
    (group as Record<string, string>)[ref.key] = value;
  }

  /** Counts a photo file of field `name`; returns its destination index. */
  photo(name: string): number {
    const ref = parseFieldName(name);
    if (ref.kind !== 'photos')
      throw badRequest(`Unexpected file "${name}": only photos[i] are files.`);
    const count = (this.photoCounts.get(ref.index) ?? 0) + 1;
    if (count > TripLimits.photosPerDestinationMax) {
      throw badRequest(Messages.tooManyPhotosPerDestination);
    }
    if (this.photoTotal + 1 > TripLimits.photosPerTripMax) {
      throw badRequest(Messages.tooManyPhotosPerTrip);
    }
    this.photoCounts.set(ref.index, count);
    this.photoTotal += 1;
    return ref.index;
  }

  finish(): GroupedTripForm {
    const count = this.destinations.size;
    for (let i = 0; i < count; i++) {
      if (!this.destinations.has(i)) {
        const max = Math.max(...this.destinations.keys());
        throw badRequest(
          `Destinations must be numbered 0, 1, 2, ... without gaps: destinations[${i}] is missing but destinations[${max}] was sent.`,
        );
      }
    }
    for (const index of this.photoCounts.keys()) {
      if (index >= count) {
        throw badRequest(
          `photos[${index}] belongs to no destination: destinations[${index}] was not sent.`,
        );
      }
    }
    return {
      trip: { ...this.trip },
      destinations: Array.from({ length: count }, (_, i) => ({ ...this.destinations.get(i)! })),
      photoCounts: Array.from({ length: count }, (_, i) => this.photoCounts.get(i) ?? 0),
    };
  }
}

/** A photo's field and client-chosen file name, safe to quote back in a message. */
export function describeFile(field: string, filename: string): string {
  const name = filename.replace(/[^\p{L}\p{N} ._()-]/gu, '').slice(0, 80);
  return name ? `${field} ("${name}")` : field;
}
