import type { Db } from 'mongodb';
import {
  cacheMetrics,
  composeService,
  connectFences,
  createLogger,
  groupId,
  type AccessFences,
} from '@wayfarer/service-kit';
import {
  FriendshipProjection,
  openMongoService,
  startMongoProjections,
} from '@wayfarer/service-kit/mongo';
import { ImageQueue, ObjectStore, s3Connection, SpoolArea } from '@wayfarer/storage';
import { limitImageThreads } from '@wayfarer/storage/pipeline';
import { buildApp, type TripsDeps } from './app';
import type { TripsEnv } from './config';
import { CONSUMERS } from './events/consumers';
import { friendshipsConsumer } from './events/consumers/friendships';
import { storiesProjection } from './events/consumers/journal';
import { startErasure } from './events/consumers/users';
import { PUBLISHED_TOPICS } from './events/outbox';
import { startJanitor } from './jobs/janitor';
import { ExportAreasClient } from './store/export-areas';
import { MYTRIPS_CACHE_TTL_MS, MyTripsCache } from './store/mytrips-cache';
import type { MyTripsBody } from './usecases/list-my-trips';
import { ImportsStore } from './store/imports';
import { PendingUploadsStore } from './store/pending-uploads';
import { TripsStore } from './store/trips';
import { resumeTrash } from './usecases/change-trip';
import { createPhotoVariants } from './usecases/photo-variants';
import { createImportSweeper } from './usecases/sweep-imports';
import { createUploadSweeper } from './usecases/sweep-uploads';
import { XmlDraftPool } from './workers/xml-pool';

/** What a caller may set besides the env (tests: a fixed clock, no history). */
export interface TripsServiceOptions extends Pick<TripsDeps, 'now'> {
  /**
   * Tests only: the friendship consumer's new group starts at the topic's end as of now rather
   * than its beginning (service-kit `ConsumerOptions.skipHistory`).
   */
  skipHistory?: boolean;
}

/**
 * trips' composition root: the whole running service from its env (MongoDB with its indexes,
 * the photos bucket, the upload spool, the image queue and the display variants made after a
 * trip is answered, the outbox relay, the friendship and journal-text consumers, the janitor (interrupted uploads,
 * unmade variants, removed photos' objects), the app). `main.ts` listens with it; the
 * integration tests boot it with a test env. `close()` closes the app, the sweeper, the
 * consumer, the variants, the spool, the relay, then the MongoDB client.
 */
export async function createService(env: TripsEnv, options: TripsServiceOptions = {}) {
  return composeService(async (onClose) => {
    // access fences (Redis): friends' reads and share links refuse what social or auth ended
    // before their events arrive
    const fenceLogger = createLogger('trips', env.LOG_LEVEL);
    const { fences, close: closeFences } = await connectFences(env.REDIS_URL, fenceLogger);
    onClose(closeFences);
    const { logger, identityProofSecret, db, stores, kafka, relay } = await openMongoService({
      name: 'trips',
      env,
      stores: (db) => openStores(db, fences),
      outbox: { topics: PUBLISHED_TOPICS, collections: (s) => [s.trips.collection] },
      // POST /api/trips' Idempotency-Keys, and photo adds', kept in the trips (unique indexes;
      // pruned after 24 h)
      idempotent: (s) => [s.trips.idempotency, s.trips.photoAdds],
      onClose,
    });
    const { trips, friendships, pending, imports } = stores;
    const photos = ObjectStore.connect({ ...s3Connection(env), bucket: env.PHOTO_BUCKET });
    await photos.ensureBucket();
    const spool = await SpoolArea.open({ root: env.SPOOL_DIR, staleAfterMs: env.UPLOAD_LEASE_MS });
    onClose(() => spool.close());

    // image work: at most IMAGE_CONCURRENCY images at once, one sharp thread each
    limitImageThreads(1);
    const images = new ImageQueue(env.IMAGE_CONCURRENCY);
    const variants = createPhotoVariants({ trips, photos, images, spool, logger });
    onClose(() => variants.stop());

    // photos of friends stay hidden while Kafka is down; owners are unaffected. Journal texts
    // for share links that include stories (journal.saved)
    const projections = startMongoProjections({
      kafka,
      db,
      logger,
      skipHistory: options.skipHistory,
      projections: {
        friendships: friendshipsConsumer(friendships, {
          groupId: groupId(env, CONSUMERS.friendships),
        }),
        stories: storiesProjection(trips, { groupId: groupId(env, CONSUMERS.journalStories) }),
      },
    });
    const { friendships: consumer, stories } = projections.consumers;
    onClose(() => projections.stop());
    // a closed account's trips, photos and friendships (auth's user.deleted)
    const erasure = startErasure({
      kafka,
      db,
      logger,
      skipHistory: options.skipHistory,
      groupId: groupId(env, CONSUMERS.erasure),
      deps: {
        trips,
        photos,
        pending,
        imports,
        friendships,
        relay,
        logger,
        now: () => new Date(),
      },
    });
    onClose(() => erasure.stop());

    // what a crash during uploads left: spool files now, objects once their lease ran out
    const uploads = createUploadSweeper({
      trips,
      pending,
      photos,
      logger,
      uploadLeaseMs: env.UPLOAD_LEASE_MS,
    });
    const janitor = startJanitor({
      name: 'trips-janitor',
      tasks: {
        spool: () => spool.sweep(),
        uploads: () => uploads.run(),
        // display variants a crash (or a failure) left unmade
        variants: () => variants.resume(),
        // objects of removed photos a crash (or a failure) left in the bucket
        trash: () => resumeTrash({ trips, photos, logger }),
      },
      intervalMs: env.UPLOAD_LEASE_MS / 2,
      logger,
    });
    onClose(() => janitor.stop());

    // what an interrupted import left: hidden trips and their photos removed, or a
    // committed import's trips shown; on start and every half import lease
    const importSweeper = createImportSweeper({ trips, imports, photos, logger, relay, variants });
    const importJanitor = startJanitor({
      name: 'import-sweep',
      tasks: { imports: () => importSweeper.run() },
      intervalMs: env.IMPORT_LEASE_MS / 2,
      logger,
    });
    onClose(() => importJanitor.stop());

    // the import's GPX and KML parse: one worker thread, started with the first such import
    const xml = new XmlDraftPool({ timeoutMs: env.IMPORT_XML_TIMEOUT_MS, logger });
    onClose(() => xml.close());

    // the owner's list, kept while their list version (in MongoDB, bumped by writes) holds
    const mytrips = new MyTripsCache<MyTripsBody>({
      maxBytes: env.MYTRIPS_CACHE_MAX_BYTES,
      ttlMs: MYTRIPS_CACHE_TTL_MS,
    });
    onClose(
      cacheMetrics('mytrips', () => {
        const { hits, misses, shared } = mytrips.stats();
        return { hit: hits, miss: misses, shared };
      }),
    );

    const app = buildApp({
      logger,
      db,
      trips,
      photos,
      identityProofSecret,
      friendships,
      fences,
      relay,
      now: options.now,
      spool,
      pending,
      uploadLeaseMs: env.UPLOAD_LEASE_MS,
      images,
      variants,
      mytrips,
      exportAreas: new ExportAreasClient(
        {
          profile: env.AUTH_URL,
          bucketlist: env.BUCKETLIST_URL,
          friends: env.SOCIAL_URL,
          journal: env.JOURNAL_URL,
          messages: env.CHAT_URL,
        },
        identityProofSecret,
        logger,
      ),
      xml,
      imports,
      importLeaseMs: env.IMPORT_LEASE_MS,
      importReadMs: env.IMPORT_READ_TIMEOUT_MS,
    });
    return {
      app,
      logger,
      db,
      trips,
      pending,
      photos,
      spool,
      friendships,
      relay,
      consumer,
      stories,
      erasure,
      janitor,
      importJanitor,
      importSweeper,
      imports,
      images,
      variants,
      mytrips,
      xml,
    };
  });
}

export type TripsService = Awaited<ReturnType<typeof createService>>;

/** trips' MongoDB stores, with their indexes. */
async function openStores(db: Db, fences: AccessFences) {
  const trips = new TripsStore(db);
  await trips.init();
  const friendships = new FriendshipProjection(db, fences);
  await friendships.init();
  const pending = new PendingUploadsStore(db);
  await pending.init();
  const imports = new ImportsStore(db);
  await imports.init();
  return { trips, friendships, pending, imports };
}
