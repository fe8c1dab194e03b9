import type { FastifyInstance } from 'fastify';
import type { SpoolArea } from '@wayfarer/storage';
import type { AuthUseCaseDeps } from '../usecases/deps';

/** What the route modules share: the app they add routes to and what the use cases need. */
export interface AuthContext extends AuthUseCaseDeps {
  app: FastifyInstance;
  /** Where a request's picture is spooled while it is checked (a directory per request). */
  spool: SpoolArea;
  /** Mark the session cookie Secure (behind HTTPS). */
  cookieSecure: boolean;
}
