import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  IDEMPOTENT_REPLAY_HEADER,
  ifMatchVersions,
  TripEditErrors,
  TripEditMessages,
  TripPatch,
  tripETag,
  tripPatchBodyMaxBytes,
  tripPhotosBodyMaxBytes,
} from '@wayfarer/contracts';
import { HttpError, notFound, parse, requireUserId, streamedClaim } from '@wayfarer/service-kit';
import type { ExpectedVersion } from '../domain/edit';
import { Messages } from '../domain/limits';
import { isPhotoId, isTripId, toApiTrip, type TripDoc } from '../domain/trip';
import { editTrip } from '../usecases/edit-trip';
import { addTripPhotosOnce, removeTripPhoto } from '../usecases/trip-photos';
import type { TripsContext } from './context';
import { readPhotoForm } from './form';

/** Answers `trip` as the API shows it, its version in the `ETag` (what `If-Match` sends back). */
export function sendTrip(reply: FastifyReply, trip: TripDoc) {
  reply.header('etag', tripETag(trip.version));
  return toApiTrip(trip);
}

/**
 * The version a change is made to (`If-Match`). Without one, 428: a change made without naming
 * the version it was made to could undo another tab's change unseen, and a retried edit that
 * adds destinations would add them twice; the frontend always sends it.
 */
function expectedVersion(request: FastifyRequest): ExpectedVersion {
  const header = request.headers['if-match'];
  const versions = ifMatchVersions(Array.isArray(header) ? header.join(',') : header);
  if (versions === null) {
    throw new HttpError(428, TripEditMessages.versionRequired, TripEditErrors.versionRequired);
  }
  return versions;
}

type TripParams = { Params: { id: string } };
type DestinationParams = { Params: { id: string; destinationId: string } };
type PhotoParams = { Params: { id: string; destinationId: string; photoId: string } };

/** Ids of a shape we never make: 404 before anything is read (a stranger learns nothing). */
function checkIds(ids: { id: string; destinationId: string; photoId?: string }): void {
  if (!isTripId(ids.id)) throw notFound(Messages.tripNotFound);
  if (!isTripId(ids.destinationId)) throw notFound(Messages.destinationNotFound);
  if (ids.photoId !== undefined && !isPhotoId(ids.photoId)) {
    throw notFound(Messages.photoNotFound);
  }
}

/**
 * Changing a saved trip (contracts' `trip-edits.ts`): each change names the version
 * it was made to in `If-Match` (428 without it, 412 when the trip changed since, nothing
 * changed), is the owner's only (404 for anyone else, as reads), is written with one
 * `trip.updated`, and answers the trip with its new `ETag`.
 */
export function editRoutes(ctx: TripsContext): void {
  const { app } = ctx;

  app.patch<TripParams>(
    '/api/trips/:id',
    { bodyLimit: tripPatchBodyMaxBytes },
    async (request, reply) => {
      const userId = requireUserId(request);
      const expected = expectedVersion(request);
      const patch = parse(TripPatch, request.body);
      const { trip } = await editTrip(ctx, userId, request.params.id, expected, patch);
      return sendTrip(reply, trip);
    },
  );

  /**
   * Takes an `Idempotency-Key` (as the creates): a retry of an add that was made answers 201
   * with the trip as it is now (its current `ETag`: the body and the tag always agree) and
   * adds nothing; the key with another form is a 422. Each trip keeps its latest keyed add's
   * key (`photoAdd`): a retry of an older add after a newer one finds the trip at another
   * version, a 412, never a second copy.
   */
  app.post<DestinationParams>(
    '/api/trips/:id/destinations/:destinationId/photos',
    { bodyLimit: tripPhotosBodyMaxBytes },
    async (request, reply) => {
      const userId = requireUserId(request);
      const keyed = streamedClaim(request, userId); // a bad key: 400 before the body is read
      const expected = expectedVersion(request);
      const { id, destinationId } = request.params;
      checkIds({ id, destinationId });
      return ctx.spool.withRequestDir(async (spool) => {
        const files = await readPhotoForm(request, reply, spool, keyed.fingerprint);
        const { trip, replayed } = await addTripPhotosOnce(ctx, {
          ownerId: userId,
          tripId: id,
          destinationId,
          expected,
          files,
          claim: keyed.claim(),
        });
        if (replayed) reply.header(IDEMPOTENT_REPLAY_HEADER, 'true');
        return sendTrip(reply.code(201), trip);
      });
    },
  );

  app.delete<PhotoParams>(
    '/api/trips/:id/destinations/:destinationId/photos/:photoId',
    async (request, reply) => {
      const userId = requireUserId(request);
      const expected = expectedVersion(request);
      const { id, destinationId, photoId } = request.params;
      checkIds({ id, destinationId, photoId });
      const { trip } = await removeTripPhoto(ctx, {
        ownerId: userId,
        tripId: id,
        destinationId,
        photoId,
        expected,
      });
      return sendTrip(reply, trip);
    },
  );
}
