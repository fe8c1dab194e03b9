import type { FastifyInstance } from 'fastify';
import type { NotificationsStore } from '../store/notifications';

/** What the route modules share. */
export interface NotificationsContext {
  app: FastifyInstance;
  store: NotificationsStore;
  now: () => Date;
}
