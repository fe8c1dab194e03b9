import type { FastifyInstance } from 'fastify';
import type { BucketListUseCaseDeps } from '../usecases/deps';

/** What the route modules share: the app, what the use cases work with, the clock. */
export interface BucketListContext {
  app: FastifyInstance;
  deps: BucketListUseCaseDeps;
  now: () => Date;
}
