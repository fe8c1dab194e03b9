import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ImportLimits, ImportMessages, TripLimits, type ImportResult } from '@wayfarer/contracts';
import { SNIFF_BYTES, sniffImage } from '@wayfarer/storage';
import type { DraftTrip, ImportDraft } from '../domain/import/draft';
import { documentDraft, fileKind, KIND_SNIFF_BYTES, parseJson } from '../domain/import/detect';
import { planImport, type PlannedTrip } from '../domain/import/plan';
import { polarstepsLayout, polarstepsTrip } from '../domain/import/polarsteps';
import { isWayfarerManifest, wayfarerTrips, WayfarerEntries } from '../domain/import/wayfarer';
import { InvalidTripError } from '../domain/errors';
import { toApiTrip, type TripDoc } from '../domain/trip';
import { ImportArchive } from '../store/import-archive';
import type { XmlDrafts } from '../workers/xml-pool';
import { createTrip, type CreateTripDeps, type SpooledPhoto } from './create-trip';
import { deleteTrip, type DeleteTripDeps } from './delete-trip';

export type ImportTripsDeps = CreateTripDeps &
  DeleteTripDeps & {
    /** Reads a GPX or KML file off the event loop (`XmlDraftPool`: a worker thread). */
    xml: XmlDrafts;
  };

/** The uploaded file, spooled whole to `path` (never held in memory). */
export interface ImportUpload {
  path: string;
  bytes: number;
  /** As the client named it ('' when none): names a trip when the file does not. */
  filename: string;
}

/**
 * `POST /api/import`: creates the owner's trips from one file, told apart by its bytes (a ZIP,
 * else an XML or JSON document), through the same create as `POST /api/trips` (`createTrip`:
 * the image pipeline, the pending upload, `trip.created` in the outbox, the list version bump).
 * Everything is read and checked before the first trip is made: an unreadable, unsafe or
 * unsupported file is a 400 with nothing created. A trip's photos are taken out of the ZIP
 * into `spoolDir` just before that trip is created and removed after it, so the disk holds
 * the upload plus one trip's photos. Should a later step still fail (a photo the image
 * pipeline refuses, storage down), the trips this import made are deleted again: an import
 * creates all its trips or none.
 */
export async function importTrips(
  deps: ImportTripsDeps,
  ownerId: string,
  upload: ImportUpload,
  spoolDir: string,
  today: string,
): Promise<ImportResult> {
  if (upload.bytes === 0) throw new InvalidTripError(ImportMessages.empty);
  const kind = fileKind(await readHead(upload.path));
  if (!kind) throw new InvalidTripError(ImportMessages.unsupported);
  if (kind !== 'zip') {
    const max = kind === 'xml' ? ImportLimits.xmlMaxBytes : ImportLimits.textMaxBytes;
    if (upload.bytes > max) {
      throw new InvalidTripError(
        kind === 'xml' ? ImportMessages.xmlTooLarge : ImportMessages.textTooLarge,
      );
    }
    const bytes = await readFile(upload.path);
    // an XML file's parse is heavy, synchronous work (a DOM of the whole file, seconds for 4
    // MiB): in the worker thread, one file at a time. A JSON one (JSON.parse, fast) here, in
    // the instance's queue of image work, so concurrent imports never hold several at once
    const draft =
      kind === 'xml'
        ? await deps.xml.draft(bytes, upload.filename)
        : await deps.images.run(async () => documentDraft(kind, bytes, upload.filename));
    return createPlanned(deps, ownerId, draft, today, null, spoolDir);
  }
  const archive = await ImportArchive.open(upload.path);
  try {
    const draft = await archiveDraft(archive);
    return await createPlanned(deps, ownerId, draft, today, archive, spoolDir);
  } finally {
    archive.close();
  }
}

/** A Wayfarer export (its manifest) or a Polarsteps export (its `trip.json` files). */
async function archiveDraft(archive: ImportArchive): Promise<ImportDraft> {
  const entries = archive.entries;
  const readJson = async (name: string) =>
    parseJson(await archive.readBytes(name, ImportLimits.textMaxBytes));
  if (entries.has(WayfarerEntries.manifest) && entries.has(WayfarerEntries.trips)) {
    if (isWayfarerManifest(await readJson(WayfarerEntries.manifest))) {
      const read = wayfarerTrips(await readJson(WayfarerEntries.trips), entries);
      if (!read) throw new InvalidTripError(ImportMessages.unsupported);
      return {
        format: 'wayfarer',
        trips: read.trips,
        skippedPlaces: 0,
        skippedPhotos: read.missingPhotos,
      };
    }
  }
  const layout = polarstepsLayout(entries);
  if (layout.length === 0) throw new InvalidTripError(ImportMessages.unsupported);
  const trips: DraftTrip[] = [];
  let skippedPlaces = 0;
  for (const files of layout) {
    const read = polarstepsTrip(await readJson(files.tripJson), files.photos);
    if (!read) continue;
    trips.push(read.trip);
    skippedPlaces += read.skipped;
  }
  if (trips.length === 0) throw new InvalidTripError(ImportMessages.unsupported);
  return { format: 'polarsteps', trips, skippedPlaces };
}

async function createPlanned(
  deps: ImportTripsDeps,
  ownerId: string,
  draft: ImportDraft,
  today: string,
  archive: ImportArchive | null,
  spoolDir: string,
): Promise<ImportResult> {
  const plan = planImport(draft, today);
  const skipped = { ...plan.skipped, photos: plan.skipped.photos + (draft.skippedPhotos ?? 0) };
  const created: TripDoc[] = [];
  try {
    for (const [t, planned] of plan.trips.entries()) {
      const dir = join(spoolDir, `trip-${t}`);
      const photos = archive ? await takePhotos(archive, planned, dir, skipped) : [];
      try {
        created.push(await createTrip(deps, ownerId, planned.input, photos));
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
  } catch (err) {
    await undo(deps, ownerId, created);
    throw err;
  }
  return {
    format: draft.format,
    trips: created.map(toApiTrip),
    skipped,
    message: ImportMessages.imported(created.length),
  };
}

/** A planned trip's photos out of the ZIP into `dir`, each typed by its bytes (else skipped). */
async function takePhotos(
  archive: ImportArchive,
  planned: PlannedTrip,
  dir: string,
  skipped: { photos: number },
): Promise<SpooledPhoto[]> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const photos: SpooledPhoto[] = [];
  for (const [i, { index, photo }] of planned.photos.entries()) {
    const path = join(dir, String(i));
    await archive.extract(photo.entry, path, TripLimits.photoMaxBytes);
    const type = sniffImage(await readHead(path, SNIFF_BYTES));
    if (!type) {
      skipped.photos++;
      await rm(path, { force: true });
      continue;
    }
    const filename = photo.entry.slice(photo.entry.lastIndexOf('/') + 1);
    photos.push({
      field: 'photo',
      filename,
      label: `The photo "${photo.entry}"`,
      path,
      bytes: photo.bytes,
      type,
      index,
    });
  }
  return photos;
}

/** Deletes the trips an import made before it failed (each failure logged, none thrown). */
async function undo(deps: ImportTripsDeps, ownerId: string, created: TripDoc[]): Promise<void> {
  for (const trip of created) {
    await deleteTrip(deps, ownerId, trip._id).catch((err: unknown) => {
      deps.logger.error({ err, tripId: trip._id }, 'could not undo a trip of a failed import');
    });
  }
}

async function readHead(path: string, bytes = KIND_SNIFF_BYTES): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await file.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}
