import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';

/** Answers smaller than this go as they are: compressing them saves less than it costs. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * What is worth compressing on the fly: JSON (the API, GeoJSON), text, JavaScript, XML and SVG.
 * Never images, photos, fonts or `application/octet-stream` (already compressed, or unknown).
 */
const COMPRESSIBLE =
  /^(?:text\/(?!event-stream)|application\/(?:[\w.-]+\+)?(?:json|xml)|application\/javascript|image\/svg\+xml)(?:;|$)/i;

export const isCompressible = (contentType: string) => COMPRESSIBLE.test(contentType);

/**
 * Compression of the answers the gateway does not have pre-compressed (the services' JSON,
 * proxied as a stream, and the gateway's own answers): brotli (quality 4, fast enough for
 * dynamic answers) or gzip as the client's Accept-Encoding asks, with `Vary: Accept-Encoding`.
 * Static assets come pre-compressed from the build (`static.ts`) and are left as they are
 * (they already carry their Content-Encoding).
 *
 * @fastify/compress applies its size threshold only to buffered answers; a proxied answer is a
 * stream, so its declared Content-Length is checked here first and a small one is sent as is.
 * Registered before any route (it hooks each route as it is added).
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  // an instance-level onSend runs before the per-route one @fastify/compress adds
  app.addHook('onSend', (request, reply, payload, done) => {
    if (payload instanceof Readable) {
      const declared = Number(reply.getHeader('content-length'));
      if (Number.isFinite(declared) && declared < COMPRESSION_THRESHOLD_BYTES) {
        // the plugin's own per-request opt-out
        request.headers['x-no-compression'] = '1';
      }
    }
    done(null, payload);
  });
  await app.register(compress, {
    global: true,
    // answers only: request bodies are never decompressed here (a compressed request body is
    // refused with 415 in app.ts's onRequest, before any route sees it)
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: COMPRESSION_THRESHOLD_BYTES,
    customTypes: isCompressible,
  });
}
