import type { FastifyInstance } from 'fastify';
import type { OutboxRelay } from '@wayfarer/service-kit';
import type { ItemsStore } from '../store/items';

/** What the route modules share. */
export interface BucketListContext {
  app: FastifyInstance;
  items: ItemsStore;
  relay?: Pick<OutboxRelay, 'kick'>;
  now: () => Date;
}
