import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ImportLimits, ImportMessages, TripLimits, type ImportResult } from '@wayfarer/contracts';
import { SNIFF_BYTES, sniffImage } from '@wayfarer/storage';
import type { DraftTrip, ImportDraft } from '../domain/import/draft';
import { documentDraft, fileKind, KIND_SNIFF_BYTES, parseJson } from '../domain/import/detect';
import { planImport, type PlannedTrip } from '../domain/import/plan';
import { polarstepsLayout, polarstepsStepCount, polarstepsTrip } from '../domain/import/polarsteps';
import {
  checkDraft,
  checkPlaces,
  checkTripFiles,
  type ReadDeadline,
} from '../domain/import/bounds';
import { isWayfarerManifest, wayfarerTrips, WayfarerEntries } from '../domain/import/wayfarer';
import { InvalidTripError } from '../domain/errors';
import { toApiTrip, type TripDoc } from '../domain/trip';
import { ImportArchive } from '../store/import-archive';
import type { XmlDrafts } from '../workers/xml-pool';
import { storeNewTrip, type CreateTripDeps, type SpooledPhoto } from './create-trip';

export type ImportTripsDeps = CreateTripDeps & {
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

/** How one import runs (`usecases/import-job.ts` gives it). */
export interface ImportRun {
  /** The import's record: its trips are written hidden under it until it commits. */
  importId: string;
  /** The reading's bound (`ImportLimits.readMaxMs`, `IMPORT_READ_TIMEOUT_MS`). */
  deadline: ReadDeadline;
  /** Throws when the import may not go on (its lease was lost); called before each trip. */
  checkpoint: () => void;
}

/** What an import made: its answer, and its trips (hidden until the import commits). */
export interface ImportMade {
  result: ImportResult;
  created: TripDoc[];
}

/**
 * `POST /api/import`'s work: the owner's trips from one file, told apart by its bytes (a ZIP,
 * else an XML or JSON document), through the same create as `POST /api/trips` (`storeNewTrip`:
 * the image pipeline, the pending upload of each trip's photos), each trip written HIDDEN under
 * the import (`run.importId`: no read, list or event sees it until the import commits, which
 * `import-job.ts` does once they are all made). Everything is read and checked before the
 * first trip is made: an unreadable, unsafe or unsupported file is a 400, one past
 * `ImportLimits` (trips, places, photos, uncompressed JSON, reading time) a 413 naming the
 * limit, with nothing created. A trip's photos are taken out of the ZIP into `spoolDir` just
 * before that trip is created and removed after it, so the disk holds the upload plus one
 * trip's photos. Should a later step fail (a photo the image pipeline refuses, storage down),
 * the caller removes the hidden trips made so far (`import-job.ts`).
 */
export async function importTrips(
  deps: ImportTripsDeps,
  ownerId: string,
  upload: ImportUpload,
  spoolDir: string,
  today: string,
  run: ImportRun,
): Promise<ImportMade> {
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
    // MiB): in the worker thread, one file at a time, within its own bound. A JSON one
    // (JSON.parse, fast) here, in the instance's queue of image work, so concurrent imports
    // never hold several at once
    const draft =
      kind === 'xml'
        ? await deps.xml.draft(bytes, upload.filename)
        : await deps.images.run(async () => documentDraft(kind, bytes, upload.filename));
    if (kind !== 'xml') run.deadline.check();
    return createPlanned(deps, ownerId, draft, today, null, spoolDir, run);
  }
  const archive = await ImportArchive.open(upload.path);
  try {
    archive.setDeadline(run.deadline);
    const draft = await archiveDraft(archive, run.deadline);
    // reading is over: photos are taken out while the trips are made, at their own pace
    archive.setDeadline(null);
    return await createPlanned(deps, ownerId, draft, today, archive, spoolDir, run);
  } finally {
    archive.close();
  }
}

/**
 * A Wayfarer export (its manifest) or a Polarsteps export (its `trip.json` files), within the
 * import's bounds: a Polarsteps export naming more trips than an import may create is refused
 * before any is read, and its places are counted as each `trip.json` is parsed (before its
 * steps are), every document against the archive's budget of uncompressed JSON and the
 * reading's deadline.
 */
async function archiveDraft(archive: ImportArchive, deadline: ReadDeadline): Promise<ImportDraft> {
  const entries = archive.entries;
  const readJson = async (name: string) => {
    const document = parseJson(await archive.readBytes(name, ImportLimits.textMaxBytes));
    deadline.check();
    return document;
  };
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
  checkTripFiles(layout.length);
  const trips: DraftTrip[] = [];
  let skippedPlaces = 0;
  let places = 0;
  for (const files of layout) {
    const document = await readJson(files.tripJson);
    places += polarstepsStepCount(document);
    checkPlaces(places);
    const read = polarstepsTrip(document, files.photos);
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
  run: ImportRun,
): Promise<ImportMade> {
  checkDraft(draft);
  const plan = planImport(draft, today);
  const skipped = { ...plan.skipped, photos: plan.skipped.photos + (draft.skippedPhotos ?? 0) };
  const created: TripDoc[] = [];
  for (const [t, planned] of plan.trips.entries()) {
    run.checkpoint();
    const dir = join(spoolDir, `trip-${t}`);
    const photos = archive ? await takePhotos(archive, planned, dir, skipped) : [];
    try {
      created.push(
        await storeNewTrip(deps, ownerId, planned.input, photos, { importId: run.importId }),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return {
    result: {
      format: draft.format,
      trips: created.map(toApiTrip),
      skipped,
      message: ImportMessages.imported(created.length),
    },
    created,
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
