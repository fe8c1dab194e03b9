import type { FastifyInstance } from 'fastify';
import type { SocialDeps } from '../usecases/deps';

/** What the route modules share: the app and what the use cases work with. */
export interface SocialContext {
  app: FastifyInstance;
  deps: SocialDeps;
}
