import type { FastifyInstance } from 'fastify';
import type { OutboxRelay } from '@wayfarer/service-kit';
import type { JournalStores } from '../store';

/** What the route modules share. */
export interface JournalContext {
  app: FastifyInstance;
  stores: JournalStores;
  relay?: Pick<OutboxRelay, 'kick'>;
}
