import { ImportLimits, ImportMessages } from '@wayfarer/contracts';
import { ImportLimitError } from '../errors';
import type { ImportDraft } from './draft';

/*
 * The bounds of one import on what a file holds (contracts' `ImportLimits`): checked as early as each count is known, before anything is created, each
 * refusal naming its limit. Pure.
 */

/** A Polarsteps export naming more trips (`trip.json` files) than one import may create. */
export function checkTripFiles(count: number): void {
  if (count > ImportLimits.tripsMax) throw new ImportLimitError(ImportMessages.tooManyTrips);
}

/**
 * Places read so far (`seen`, all trips together) past `ImportLimits.destinationsMax`: checked
 * while a Polarsteps export's `trip.json` files are read (before their steps are), and on any
 * parser's draft (`checkDraft`).
 */
export function checkPlaces(seen: number): void {
  if (seen > ImportLimits.destinationsMax) {
    throw new ImportLimitError(ImportMessages.tooManyDestinations);
  }
}

/** A parser's draft within the import's bounds on places (as the file has them). */
export function checkDraft(draft: ImportDraft): void {
  checkPlaces(draft.trips.reduce((sum, trip) => sum + trip.places.length, 0));
}

/** Photos the plan keeps past `ImportLimits.photosMax` (each goes through the image pipeline). */
export function checkPhotos(count: number): void {
  if (count > ImportLimits.photosMax) throw new ImportLimitError(ImportMessages.tooManyPhotos);
}

/**
 * How long reading an import's file may take (from `startedAt`, `ms`): `check()` refuses once
 * it is past, called between steps of the reading (each JSON document, each piece inflated).
 */
export class ReadDeadline {
  private readonly until: number;

  constructor(
    readonly ms: number,
    startedAt: number = Date.now(),
  ) {
    this.until = startedAt + ms;
  }

  check(now: number = Date.now()): void {
    if (now > this.until) throw new ImportLimitError(ImportMessages.tooSlow(this.ms));
  }
}
