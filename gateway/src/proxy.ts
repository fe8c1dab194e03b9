import proxy from '@fastify/http-proxy';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { REQUEST_ID_HEADER } from '@wayfarer/service-kit';
import { bodyTooLargeMessage, maxBodyBytesFor, PROXY_ROUTES, type ServiceName } from './routes';
import { upstreamHeaders, verifySession } from './session';

const UNAVAILABLE_CODES = new Set([
  'FST_REPLY_FROM_SERVICE_UNAVAILABLE',
  'FST_REPLY_FROM_CONNECT_TIMEOUT',
  'ECONNREFUSED',
]);

/** The part of a reply the error handler uses (reply-from types it for http1 and http2). */
interface ErrorReply {
  request: { log: FastifyBaseLogger };
  code(status: number): this;
  header(name: string, value: string): this;
  send(body: unknown): unknown;
}

function upstreamError(service: ServiceName) {
  return (reply: ErrorReply, { error }: { error: Error & { code?: string; cause?: unknown } }) => {
    const causeCode = (error.cause as { code?: string } | undefined)?.code;
    const code = error.code ?? '';
    let status = 502;
    let message = `The ${service} service answered badly. Please try again.`;
    if (code === 'FST_REPLY_FROM_GATEWAY_TIMEOUT') {
      status = 504;
      message = `The ${service} service took too long to answer. Please try again.`;
    } else if (
      UNAVAILABLE_CODES.has(code) ||
      UNAVAILABLE_CODES.has(causeCode ?? '') ||
      /ECONNREFUSED/.test(error.message)
    ) {
      status = 503;
      message = `The ${service} service is unavailable right now. Please try again shortly.`;
    }
    reply.request.log.warn({ upstream: service, code, causeCode, status }, 'upstream error');
    void reply
      .code(status)
      .header('retry-after', '5')
      .send({ error: status === 503 ? 'service_unavailable' : 'bad_gateway', message });
  };
}

/** Registers one proxy per route of the table, each checking the session as the route asks. */
export async function registerProxies(
  app: FastifyInstance,
  upstreams: Record<ServiceName, string>,
  redis: Redis,
  timeoutMs: number,
): Promise<void> {
  for (const route of PROXY_ROUTES) {
    await app.register(proxy, {
      upstream: upstreams[route.service],
      prefix: route.prefix,
      rewritePrefix: route.prefix,
      http: { requestOptions: { timeout: timeoutMs } },
      preHandler: async (request, reply) => {
        const declared = Number(request.headers['content-length'] ?? 0);
        const maxBytes = maxBodyBytesFor(route);
        if (declared > maxBytes) {
          return reply
            .code(413)
            .header('connection', 'close')
            .send({ error: 'payload_too_large', message: bodyTooLargeMessage(maxBytes) });
        }
        if (route.access === 'public') return;
        request.session = await verifySession(request, redis);
        if (!request.session && route.access === 'required') {
          return reply
            .code(401)
            .send({ error: 'unauthorized', message: 'You need to be signed in.' });
        }
      },
      replyOptions: {
        rewriteRequestHeaders: (request, headers) =>
          upstreamHeaders(headers, request.session, {
            [REQUEST_ID_HEADER]: request.id,
            'x-forwarded-for': request.ip,
          }),
        onError: upstreamError(route.service),
        // never replay a request on a 503 from a service: it answered, that is its answer
        retryDelay: () => null,
      },
    });
  }
}
