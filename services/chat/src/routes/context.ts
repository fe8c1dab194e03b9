import type { FastifyInstance } from 'fastify';
import type { ChatUseCaseDeps } from '../usecases/deps';

/** What the route modules share: the app, what the use cases work with, the clock. */
export interface ChatContext {
  app: FastifyInstance;
  deps: ChatUseCaseDeps;
  now: () => Date;
}
