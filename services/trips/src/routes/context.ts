import type { FastifyInstance } from 'fastify';
import type { Logger, OutboxRelay } from '@wayfarer/service-kit';
import type { ImageQueue, ObjectStore, SpoolArea } from '@wayfarer/storage';
import type { TripDoc } from '../domain/trip';
import type { MyTripsCache } from '../store/mytrips-cache';
import type { ImportsStore } from '../store/imports';
import type { PendingUploadsStore } from '../store/pending-uploads';
import type { TripsStore } from '../store/trips';
import type { MyTripsBody } from '../usecases/list-my-trips';
import type { XmlDrafts } from '../workers/xml-pool';

/** What the route modules share: the app they add routes to and what the use cases need. */
export interface TripsContext {
  app: FastifyInstance;
  logger: Logger;
  trips: TripsStore;
  photos: ObjectStore;
  /** Who is friends with whom (service-kit's FriendshipProjection). */
  friendships: { areFriends(a: string, b: string): Promise<boolean> };
  /** Closed accounts (service-kit `AccessFences`): their share links end at once. */
  fences: { isClosed(userId: string): Promise<boolean> };
  /** Kicked after a write that queued events; optional (the relay also polls). */
  relay?: Pick<OutboxRelay, 'kick'>;
  now: () => Date;
  spool: SpoolArea;
  pending: PendingUploadsStore;
  uploadLeaseMs: number;
  images: ImageQueue;
  /** Makes display variants after a trip is answered (`usecases/photo-variants`). */
  variants: { enqueue(trip: Pick<TripDoc, '_id' | 'pendingVariants'>): void };
  mytrips: MyTripsCache<MyTripsBody>;
  /** Reads an imported GPX or KML file in a worker thread (`workers/xml-pool.ts`). */
  xml: XmlDrafts;
  /** The imports' records (one unit each, their keys, the rate limit's count). */
  imports: ImportsStore;
  /** An import's lease (`IMPORT_LEASE_MS`). */
  importLeaseMs: number;
  /** How long reading an import's file may take (`IMPORT_READ_TIMEOUT_MS`). */
  importReadMs: number;
}
