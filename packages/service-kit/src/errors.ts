import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

/** An error with an HTTP status and a message meant for the client. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code: string = defaultCode(statusCode),
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

function defaultCode(status: number): string {
  switch (status) {
    case 400:
      return 'bad_request';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 429:
      return 'too_many_requests';
    default:
      return status >= 500 ? 'internal_error' : 'error';
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const notFound = (message = 'Not found.') => new HttpError(404, message);

/** Turns a ZodError into one readable sentence: "email: Email must be a valid email address." */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) =>
      issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
    )
    .join(' ');
}

export type NotFoundHandler = (request: FastifyRequest, reply: FastifyReply) => unknown;

/**
 * One error shape for every service: `{ error, message }`. Client errors keep their message;
 * anything unexpected is logged with the request id and answered as a plain 500.
 */
export function installErrorHandler(app: FastifyInstance, notFound?: NotFoundHandler): void {
  app.setErrorHandler((err: FastifyError | HttpError | z.ZodError | Error, request, reply) => {
    if (err instanceof HttpError) {
      return reply.code(err.statusCode).send({ error: err.code, message: err.message });
    }
    if (err instanceof z.ZodError) {
      return reply.code(400).send({ error: 'bad_request', message: describeZodError(err) });
    }
    const status = (err as FastifyError).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return reply
        .code(status)
        .send({ error: (err as FastifyError).code ?? defaultCode(status), message: err.message });
    }
    request.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ error: 'internal_error', message: 'Something went wrong.' });
  });
  app.setNotFoundHandler(
    notFound ??
      ((request, reply) =>
        reply
          .code(404)
          .send({ error: 'not_found', message: `No route for ${request.method} ${request.url}` })),
  );
}
