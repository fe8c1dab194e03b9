import { z } from 'zod';
import type { DraftPlace, DraftTrip, PhotoRef } from './draft';
import { utcDate } from './draft';

/*
 * A Polarsteps data export (the ZIP its "Download my data" gives), as publicly described: each
 * trip in a folder `trip/<name>_<tripId>/` holding `trip.json`, and each step's photos in
 * `trip/<name>_<tripId>/<step-slug>_<stepId>/photos/*.jpg`. What we could not confirm against a
 * real export (docs/services/trips.md): the exact folder names, whether the folders sit under
 * a top folder (accepted: any prefix before `trip/`), and every field beyond those read below,
 * which are all read leniently.
 */

/** The files of one Polarsteps trip inside the ZIP. */
export interface PolarstepsTripFiles {
  /** The entry of its `trip.json`. */
  tripJson: string;
  /** Photos by the step id their folder ends with. */
  photos: Map<string, PhotoRef[]>;
}

const TRIP_JSON = /^(.*(?:^|\/)trip\/[^/]+\/)trip\.json$/;
const STEP_PHOTO = /^([^/]+)_(\d+)\/photos\/[^/]+\.(?:jpe?g|png|webp|gif)$/i;

/** Finds the Polarsteps trips among a ZIP's entries (name and stated size); none: not one. */
export function polarstepsLayout(
  entries: ReadonlyMap<string, { bytes: number }>,
): PolarstepsTripFiles[] {
  const trips: PolarstepsTripFiles[] = [];
  for (const name of entries.keys()) {
    const m = TRIP_JSON.exec(name);
    if (m) trips.push({ tripJson: name, photos: photosUnder(m[1]!, entries) });
  }
  return trips.sort((a, b) => a.tripJson.localeCompare(b.tripJson));
}

function photosUnder(
  dir: string,
  entries: ReadonlyMap<string, { bytes: number }>,
): Map<string, PhotoRef[]> {
  const photos = new Map<string, PhotoRef[]>();
  for (const [name, { bytes }] of entries) {
    if (!name.startsWith(dir)) continue;
    const m = STEP_PHOTO.exec(name.slice(dir.length));
    if (!m) continue;
    const list = photos.get(m[2]!) ?? [];
    list.push({ entry: name, bytes });
    photos.set(m[2]!, list);
  }
  for (const list of photos.values()) list.sort((a, b) => a.entry.localeCompare(b.entry));
  return photos;
}

const seconds = z.number().finite().nullish();
const str = z.string().nullish();

const Step = z.object({
  id: z.union([z.number(), z.string()]),
  name: str,
  display_name: str,
  description: str,
  start_time: seconds,
  end_time: seconds,
  timezone_id: str,
  location: z
    .object({ lat: z.number(), lon: z.number(), name: str, country_code: str })
    .passthrough()
    .nullish(),
});

/** `trip.json`, as far as the import reads it (anything else in it is ignored). */
export const PolarstepsTrip = z.object({
  name: str,
  start_date: seconds,
  end_date: seconds,
  timezone_id: str,
  all_steps: z.array(z.unknown()).default([]),
});

/**
 * How many steps a parsed `trip.json` lists (0 when it is not one): counted against the
 * import's places before any step is read (`ImportLimits.destinationsMax`).
 */
export function polarstepsStepCount(document: unknown): number {
  const steps = (document as { all_steps?: unknown } | null)?.all_steps;
  return Array.isArray(steps) ? steps.length : 0;
}

/**
 * One Polarsteps trip: its steps in time order as destinations (name: `display_name`, `name`
 * or the location's name; story: `description`; dates: the days of `start_time` and
 * `end_time` in the step's time zone when it names a valid one, else UTC), with the photos of
 * the step's folder. A step without a location is counted in `skipped`. Null when `trip.json`
 * is not a Polarsteps trip.
 */
export function polarstepsTrip(
  document: unknown,
  photos: ReadonlyMap<string, PhotoRef[]>,
): { trip: DraftTrip; skipped: number } | null {
  const parsed = PolarstepsTrip.safeParse(document);
  if (!parsed.success) return null;
  let skipped = 0;
  const steps = parsed.data.all_steps
    .map((raw) => Step.safeParse(raw))
    .flatMap((step) => {
      if (step.success && step.data.location) return [step.data];
      skipped++;
      return [];
    })
    .sort((a, b) => (a.start_time ?? 0) - (b.start_time ?? 0));
  const places = steps.map((step): DraftPlace => {
    const zone = step.timezone_id ?? parsed.data.timezone_id;
    const startDate = dayIn(step.start_time, zone);
    return {
      name: step.display_name || step.name || step.location!.name || '',
      latitude: step.location!.lat,
      longitude: step.location!.lon,
      startDate,
      endDate: dayIn(step.end_time, zone) ?? startDate,
      story: step.description ?? '',
      photos: photos.get(String(step.id)) ?? [],
    };
  });
  return { trip: { name: parsed.data.name || 'Polarsteps trip', places }, skipped };
}

/** The calendar day of unix `seconds` in time zone `zone` (UTC when it is not a known one). */
export function dayIn(
  seconds: number | null | undefined,
  zone?: string | null,
): string | undefined {
  if (seconds === null || seconds === undefined) return undefined;
  const at = new Date(seconds * 1000);
  if (Number.isNaN(at.getTime())) return undefined;
  if (zone) {
    try {
      // en-CA writes dates as YYYY-MM-DD
      return new Intl.DateTimeFormat('en-CA', {
        timeZone: zone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      }).format(at);
    } catch {
      // not a time zone this runtime knows: UTC
    }
  }
  return utcDate(at);
}
