import type { Kafka } from 'kafkajs';
import { Topics } from '@wayfarer/contracts';
import {
  startConsumerInBackground,
  type BackgroundConsumer,
  type Logger,
} from '@wayfarer/service-kit';
import { processedEventsHandler, type Pool } from '@wayfarer/service-kit/pg';
import type { ItemsStore } from '../../store/items';
import { tickVisitedPlaces } from '../../usecases/tick-visited-places';
import { CONSUMERS, type ConsumerOptions } from './index';

export interface TripConsumerOptions extends ConsumerOptions {
  kafka: Kafka;
  pool: Pool;
  items: ItemsStore;
  logger: Logger;
  /** `groupId(env, CONSUMERS.trips)` */
  groupId: string;
  /** Called after an event ticked places off (the relay's kick: their events go at once). */
  onVisited?: () => void;
}

/**
 * trips' `trips.trip.v1`: each event applied once (service-kit's processed-events handler, its
 * marker in the same transaction as the change), joined in the background so HTTP is served
 * while Kafka is away. A payload failing its schema is logged and skipped (service-kit).
 */
export function startTripConsumer(options: TripConsumerOptions): BackgroundConsumer {
  const { pool, items, logger } = options;
  return startConsumerInBackground({
    kafka: options.kafka,
    logger,
    groupId: options.groupId,
    topics: [Topics.tripsTrip],
    skipHistory: options.skipHistory,
    maxRetryDelayMs: options.maxRetryDelayMs,
    handle: async (event) => {
      let ticked = 0;
      const apply = processedEventsHandler(pool, CONSUMERS.trips, async (client, e) => {
        ticked = await tickVisitedPlaces(client, items, e);
      });
      if ((await apply(event)) && ticked > 0) {
        logger.info({ eventId: event.id, places: ticked }, 'places visited by a trip');
        options.onVisited?.();
      }
    },
  });
}
