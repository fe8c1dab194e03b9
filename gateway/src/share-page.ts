import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Pool } from 'undici';
import { isShareToken, SharedTrip, SharePaths } from '@wayfarer/contracts';
import { proofPath, REQUEST_ID_HEADER, type IdentityProofMinter } from '@wayfarer/service-kit';
import { renderSharePage } from './share-head';
import { upstreamHeaders } from './session';
import { upstreamConnector } from './upstream-socket';

/**
 * The public page of a share link, `GET /s/{token}`: the SPA's `index.html` (the SPA
 * draws the page from `GET /api/shared/{token}` itself) with its head filled for link previews
 * (`share-head.ts`), so a crawler that runs no script sees the trip's name, dates, places and
 * first photo, as absolute URLs on the configured public origin (PUBLIC_URL: a forged Host
 * must never reach a preview or a cache in front). The gateway reads the link from trips as an anonymous visitor (an identity proof
 * without a user, whatever cookie came with the request: the page is the same for everyone).
 *
 * - a live link: 200, Open Graph tags, `noindex` unless the owner allowed indexing;
 * - a link that no longer works (unknown, revoked, expired; or not a token at all): 404, the
 *   plain page with `noindex` (the SPA then says so);
 * - trips down, slow or answering badly: 200, the plain page with `noindex` (no preview).
 * Never cached (`no-store`): a revoked link's preview must not outlive it.
 */

/** How long the page waits for trips' answer before serving itself without a preview. */
export const SHARE_PREVIEW_TIMEOUT_MS = 3_000;

/** Largest answer of trips read for a preview (a trip with its stories); past it, no preview. */
const SHARE_PREVIEW_MAX_BYTES = 2 * 1024 * 1024;

/** Whether a normalised path is a share page (`/s/...`): rate-limited with the shared reads. */
export const isSharePagePath = (path: string): boolean =>
  path.startsWith(`${SharePaths.pagePrefix}/`);

type Preview = { kind: 'live'; trip: SharedTrip } | { kind: 'gone' } | { kind: 'unknown' };

export interface SharePageOptions {
  /** The built frontend (its `index.html`, read per request: a rebuild is served at once). */
  dist: string;
  tripsUrl: string;
  /** The gateway's upstream timeout; the preview waits at most SHARE_PREVIEW_TIMEOUT_MS. */
  timeoutMs: number;
  proofs: IdentityProofMinter;
  /** The origin of the page's absolute URLs (`publicOrigin`: PUBLIC_URL, never the request's). */
  origin: string;
}

export function registerSharePage(app: FastifyInstance, options: SharePageOptions): void {
  const timeout = Math.min(options.timeoutMs, SHARE_PREVIEW_TIMEOUT_MS);
  const trips = new Pool(options.tripsUrl, {
    connections: 16,
    headersTimeout: timeout,
    bodyTimeout: timeout,
    connect: upstreamConnector(),
  });
  app.addHook('onClose', async () => trips.close());

  /** trips' `GET /api/shared/{token}`, asked as an anonymous visitor. */
  async function preview(request: FastifyRequest, token: string): Promise<Preview> {
    if (!isShareToken(token)) return { kind: 'gone' };
    const path = SharePaths.api(token);
    const headers = upstreamHeaders(
      { accept: 'application/json' },
      { session: null, clientIp: request.ip, method: 'GET', path: proofPath(path) },
      options.proofs,
      { [REQUEST_ID_HEADER]: request.id, 'x-forwarded-for': request.ip },
    );
    try {
      const res = await trips.request({
        path,
        method: 'GET',
        headers: headers as Record<string, string>,
        signal: AbortSignal.timeout(timeout),
      });
      const declared = Number(res.headers['content-length'] ?? 0);
      if (res.statusCode !== 200 || declared > SHARE_PREVIEW_MAX_BYTES) {
        await res.body.dump();
        return res.statusCode === 404 ? { kind: 'gone' } : { kind: 'unknown' };
      }
      let size = 0;
      const chunks: Buffer[] = [];
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > SHARE_PREVIEW_MAX_BYTES) {
          res.body.destroy();
          return { kind: 'unknown' };
        }
        chunks.push(chunk);
      }
      const parsed = SharedTrip.safeParse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      return parsed.success ? { kind: 'live', trip: parsed.data } : { kind: 'unknown' };
    } catch (err) {
      request.log.warn({ err: (err as Error).message }, 'share preview: trips did not answer');
      return { kind: 'unknown' };
    }
  }

  app.get<{ Params: { token: string } }>(
    `${SharePaths.pagePrefix}/:token`,
    async (request, reply) => {
      const { token } = request.params;
      const [indexHtml, found] = await Promise.all([
        readFile(join(options.dist, 'index.html'), 'utf8'),
        preview(request, token),
      ]);
      const trip = found.kind === 'live' ? found.trip : null;
      const html = renderSharePage(indexHtml, {
        trip,
        origin: options.origin,
        pagePath: SharePaths.page(token),
      });
      if (!trip?.allowIndexing) reply.header('x-robots-tag', 'noindex');
      return reply
        .code(found.kind === 'gone' ? 404 : 200)
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(html);
    },
  );
}
