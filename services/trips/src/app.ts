import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { ImportLimits } from '@wayfarer/contracts';
import type { Db } from 'mongodb';
import {
  createHttpApp,
  installErrorMap,
  type Logger,
  type OutboxRelay,
} from '@wayfarer/service-kit';
import { mongoPing } from '@wayfarer/service-kit/mongo';
import type { ImageQueue, ObjectStore, SpoolArea } from '@wayfarer/storage';
import { TRIP_MULTIPART_LIMITS } from './domain/limits';
import type { TripDoc } from './domain/trip';
import { archiveRoutes } from './routes/archive';
import type { TripsContext } from './routes/context';
import { editRoutes } from './routes/edits';
import { httpErrorOf } from './routes/errors';
import { exportRoutes } from './routes/export';
import { importRoutes } from './routes/import';
import { photoRoutes } from './routes/photos';
import { shareRoutes } from './routes/share';
import { tripRoutes } from './routes/trips';
import type { MyTripsCache } from './store/mytrips-cache';
import type { MyTripsBody } from './usecases/list-my-trips';
import type { ExportAreasClient } from './store/export-areas';
import { ImportsStore } from './store/imports';
import { PendingUploadsStore } from './store/pending-uploads';
import { TripsStore } from './store/trips';
import type { XmlDrafts } from './workers/xml-pool';

export interface TripsDeps {
  logger: Logger;
  db: Db;
  /** The trips collection (default: `trips` in `db`). */
  trips?: TripsStore;
  /** Destination photos: the private `photos` bucket. */
  photos: ObjectStore;
  /** Checks the gateway's identity proof (service-kit `loadIdentityProofSecret`). */
  identityProofSecret: Buffer;
  /** Who is friends with whom (service-kit's FriendshipProjection). */
  friendships: { areFriends(a: string, b: string): Promise<boolean> };
  /** Closed accounts (service-kit `AccessFences`): their share links end at once. */
  fences: { isClosed(userId: string): Promise<boolean> };
  /** Kicked after a write that queued events; optional (the relay also polls). */
  relay?: Pick<OutboxRelay, 'kick'>;
  /** Clock (tests pin "today"). Default: the real time. */
  now?: () => Date;
  /** Where uploaded photos are spooled while a trip is created (a directory per request). */
  spool: SpoolArea;
  /** Uploads in progress (default: `pending_uploads` in `db`). */
  pending?: PendingUploadsStore;
  /** The lease of an upload's pending record (`UPLOAD_LEASE_MS`). */
  uploadLeaseMs: number;
  /** The instance's bound on image work (`IMAGE_CONCURRENCY`). */
  images: ImageQueue;
  /** Makes display variants after a trip is answered (`usecases/photo-variants`). */
  variants: { enqueue(trip: Pick<TripDoc, '_id' | 'pendingVariants'>): void };
  /** This instance's kept `GET /api/mytrips` bodies (`MYTRIPS_CACHE_MAX_BYTES`). */
  mytrips: MyTripsCache<MyTripsBody>;
  /** The other services' areas of the account export (`GET /api/export`). */
  exportAreas: ExportAreasClient;
  /** Reads an imported GPX or KML file off the event loop (`XmlDraftPool`, a worker thread). */
  xml: XmlDrafts;
  /** The imports' records (default: `imports` in `db`). */
  imports?: ImportsStore;
  /** An import's lease (`IMPORT_LEASE_MS`; default 30 s). */
  importLeaseMs?: number;
  /** How long reading an import's file may take (`IMPORT_READ_TIMEOUT_MS`). */
  importReadMs?: number;
}

/** The trips service's HTTP app (not listening): what main.ts runs and tests inject into. */
export function buildApp(deps: TripsDeps): FastifyInstance {
  const app = createHttpApp({
    name: 'trips',
    logger: deps.logger,
    identityProofSecret: deps.identityProofSecret,
    // Small JSON bodies at most; the PATCH of a trip and the multipart forms have their own
    // limits (route bodyLimit, the forms' multipart limits).
    bodyLimit: 64 * 1024,
    readiness: {
      mongo: mongoPing(deps.db),
      minio: () => deps.photos.ping(),
    },
  });
  void app.register(multipart, { limits: TRIP_MULTIPART_LIMITS, throwFileSizeLimit: true });

  const ctx: TripsContext = {
    app,
    logger: deps.logger,
    trips: deps.trips ?? new TripsStore(deps.db),
    photos: deps.photos,
    friendships: deps.friendships,
    fences: deps.fences,
    relay: deps.relay,
    now: deps.now ?? (() => new Date()),
    spool: deps.spool,
    pending: deps.pending ?? new PendingUploadsStore(deps.db),
    uploadLeaseMs: deps.uploadLeaseMs,
    images: deps.images,
    variants: deps.variants,
    mytrips: deps.mytrips,
    xml: deps.xml,
    imports: deps.imports ?? new ImportsStore(deps.db),
    importLeaseMs: deps.importLeaseMs ?? 30_000,
    importReadMs: deps.importReadMs ?? ImportLimits.readMaxMs,
  };
  // Routes are added after the multipart plugin has loaded (its decorators are needed); the
  // domain's errors are answered as HTTP errors by every route (routes/errors.ts).
  void app.after(() => {
    installErrorMap(app, httpErrorOf);
    tripRoutes(ctx);
    editRoutes(ctx);
    photoRoutes(ctx);
    shareRoutes(ctx);
    exportRoutes(ctx);
    archiveRoutes({ ...ctx, exportAreas: deps.exportAreas });
    importRoutes(ctx);
  });
  return app;
}
