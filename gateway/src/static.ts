import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Serves the built frontend. Hashed assets under /static are cached for a year. The build writes
 * a brotli (`.br`) and a gzip (`.gz`) twin next to each text asset (JS, CSS, HTML, SVG, JSON and
 * GeoJSON; `frontend/build/precompress.ts`): the twin the client's Accept-Encoding takes is sent
 * with its Content-Encoding (brotli first), the plain file otherwise, always with
 * `Vary: Accept-Encoding`. Nothing is compressed per request here.
 */
export async function registerFrontend(app: FastifyInstance, dist: string): Promise<void> {
  if (!existsSync(join(dist, 'index.html'))) {
    throw new Error(`FRONTEND_DIST=${dist} has no index.html: build the frontend first`);
  }
  await app.register(fastifyStatic, {
    root: dist,
    wildcard: false,
    index: false,
    preCompressed: true,
    setHeaders(reply, path) {
      reply.header(
        'cache-control',
        path.includes('/static/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
}

/** Unknown routes: index.html for a page navigation (the SPA routes it), else a JSON 404. */
export function spaFallback(request: FastifyRequest, reply: FastifyReply) {
  const path = request.url.split('?', 1)[0] ?? '/';
  const wantsHtml = (request.headers.accept ?? '').includes('text/html');
  if (
    (request.method === 'GET' || request.method === 'HEAD') &&
    !path.startsWith('/api') &&
    wantsHtml
  ) {
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  }
  return reply
    .code(404)
    .send({ error: 'not_found', message: `No route for ${request.method} ${path}` });
}
