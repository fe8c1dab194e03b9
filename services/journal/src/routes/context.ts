import type { FastifyInstance } from 'fastify';
import type { JournalUseCaseDeps } from '../usecases/deps';

/** What the route modules share: the app and what the use cases work with. */
export interface JournalContext {
  app: FastifyInstance;
  deps: JournalUseCaseDeps;
}
