import { isDecimalNumber, TRIP_FIELDS, TripInput } from '@wayfarer/contracts';
import { InvalidTripError } from './errors';
import type { GroupedTripForm } from './form';
import { Messages } from './limits';

const blank = (value: string | undefined): value is undefined | '' =>
  value === undefined || value.trim() === '';

/** Today's date (UTC) as `YYYY-MM-DD`. */
export function isoDate(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/**
 * Turns the grouped form into a validated `TripInput`.
 *
 * Lenient where the spec is (section 5: nothing checks the trip name; "the trip date range
 * defaults to today for both"): a missing or empty trip date is today, and a missing or empty
 * destination date is the trip's. Strict on junk: a date that is not a real `YYYY-MM-DD`, a trip
 * or destination that ends before it starts (the spec's service did not check; contracts'
 * `TripDateMessages.endBeforeStart`, which the add-trip form shows too), text that is not plain
 * text (contracts' `plainText`), coordinates that are missing, not numbers or out of range, a
 * destination without a name, too many destinations, a story that is too long. And a form
 * without the trip's own fields (`name`, `startDate`, `endDate`, which the spec's client always
 * sends, empty or not) is not a trip form: an empty or malformed body creates nothing.
 */
export function buildTripInput(form: GroupedTripForm, today: string): TripInput {
  const missing = TRIP_FIELDS.filter((field) => form.trip[field] === undefined);
  if (missing.length > 0) throw new InvalidTripError(Messages.missingTripFields(missing));
  const startDate = blank(form.trip.startDate) ? today : form.trip.startDate;
  const endDate = blank(form.trip.endDate) ? today : form.trip.endDate;
  const problems: string[] = [];
  const destinations = form.destinations.map((d, i) => {
    for (const key of ['latitude', 'longitude'] as const) {
      const value = d[key];
      if (blank(value)) problems.push(`destinations.${i}.${key}: ${key} is required.`);
      else if (!isDecimalNumber(value)) {
        problems.push(`destinations.${i}.${key}: ${key} must be a number.`);
      }
    }
    return {
      name: d.name ?? '',
      startDate: blank(d.startDate) ? startDate : d.startDate,
      endDate: blank(d.endDate) ? endDate : d.endDate,
      latitude: d.latitude,
      longitude: d.longitude,
      story: d.story ?? '',
    };
  });
  if (problems.length > 0) throw new InvalidTripError(problems.join(' '));
  // a value breaking TripInput's rules: a ZodError naming each (a 400 with its issues)
  // `visibility` absent: TripInput's default (`friends`); any other value than its own: a 400
  // naming the field
  return TripInput.parse({
    name: form.trip.name ?? '',
    startDate,
    endDate,
    destinations,
    visibility: form.trip.visibility,
  });
}
