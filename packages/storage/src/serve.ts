import type { FastifyReply } from 'fastify';
import { notFound } from '@wayfarer/service-kit';
import type { ObjectStore } from './object-store';

/** Headers of every stored file a service serves (avatars, photos), after its access checks. */
export const OBJECT_HEADERS = {
  /** Only the signed-in browser that asked may cache it; no shared cache ever keeps it. */
  'cache-control': 'private, max-age=86400',
  /** Never sniffed into something else (HTML, script) by the browser. */
  'x-content-type-options': 'nosniff',
  /** Opened on its own, it runs nothing and loads nothing. */
  'content-security-policy': "default-src 'none'",
} as const;

/**
 * Streams the object at `key` of `store` as the answer, with its `contentType`, its size and
 * OBJECT_HEADERS (`options.cacheControl` replacing its Cache-Control); a missing object is a 404 with `notFoundMessage`.
 */
export async function sendObject(
  reply: FastifyReply,
  store: ObjectStore,
  key: string,
  options: {
    contentType: string;
    notFoundMessage: string;
    /** Instead of OBJECT_HEADERS' (e.g. `no-store` for a stand-in that is soon replaced). */
    cacheControl?: string;
  },
): Promise<FastifyReply> {
  const info = await store.stat(key);
  const stream = info && (await store.get(key));
  if (!info || !stream) throw notFound(options.notFoundMessage);
  return reply
    .headers(OBJECT_HEADERS)
    .header('content-type', options.contentType)
    .header('content-length', info.size)
    .header('cache-control', options.cacheControl ?? OBJECT_HEADERS['cache-control'])
    .send(stream);
}
