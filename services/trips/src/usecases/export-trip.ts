import { InvalidTripError } from '../domain/errors';
import {
  ExportMessages,
  exportTripFile,
  isTripExportFormat,
  tripFileTitle,
  type TripFile,
} from '../domain/export';
import type { TripsStore } from '../store/trips';
import { readOwned } from './read-trip';

export interface ExportTripDeps {
  trips: TripsStore;
  now: () => Date;
}

export interface ExportedTripFile extends TripFile {
  /** The file's name in UTF-8, as the trip is called (`tripFileTitle`). */
  title: string;
}

/**
 * `GET /api/trips/{id}/export.<format>`: the owner's trip as a file of `format`. A format that
 * is not one of contracts' `TripExportFormats` is refused first (InvalidTripError: nothing is
 * read); anyone else's trip, an unknown or a malformed id is NotFoundError, as every owner's
 * read (a friend who may see the trip does not export it: the files are the owner's data).
 */
export async function exportTrip(
  deps: ExportTripDeps,
  ownerId: string,
  tripId: string,
  format: string,
): Promise<ExportedTripFile> {
  if (!isTripExportFormat(format)) throw new InvalidTripError(ExportMessages.unknownFormat);
  const trip = await readOwned(deps, ownerId, tripId);
  const file = exportTripFile(trip, format, { now: deps.now() });
  return { ...file, title: tripFileTitle(trip.name, format) };
}
