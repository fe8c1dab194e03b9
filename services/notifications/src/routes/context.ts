import type { FastifyInstance } from 'fastify';
import type { NotificationsDeps } from '../usecases/deps';

/** What the route modules share: the app and what the use cases work with. */
export interface NotificationsContext {
  app: FastifyInstance;
  deps: NotificationsDeps;
}
