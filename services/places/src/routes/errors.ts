import type { FastifyReply } from 'fastify';
import { HttpError } from '@wayfarer/service-kit';
import { IndexNotReadyError } from '../domain/errors';

/** What a places error is in HTTP (anything else as it is); a refusal's headers go on `reply`. */
export function httpErrorOf(err: unknown, reply: FastifyReply): unknown {
  if (err instanceof IndexNotReadyError) {
    reply.header('retry-after', '1');
    return new HttpError(503, 'Place search is starting up; try again in a moment.', 'not_ready');
  }
  return err;
}
