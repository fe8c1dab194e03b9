import type { FastifyInstance } from 'fastify';
import type { ChatStores } from '../store';

/** What the route modules share: the app they add routes to and what the handlers need. */
export interface ChatContext {
  app: FastifyInstance;
  stores: ChatStores;
  now: () => Date;
}
