import type { IncomingMessage } from 'node:http';
import type { Dispatcher } from 'undici';
import type { ServiceName } from './routes';
import type { VerifiedSession } from './session';

/*
 * What the hot path (`hot-path.ts`) and the Fastify proxy (`proxy.ts`) share about one request,
 * in a module of its own so that neither imports the other back (the hot path uses the proxy's
 * headers; the proxy asks whether the hot path handed a request over).
 */

/** When a proxied request went upstream, to which service, and how long its headers took. */
export interface UpstreamTiming {
  service: ServiceName;
  startedAt: number;
  /** Milliseconds from sending the request upstream to the service's response headers. */
  ms?: number;
}

/** A request the hot path forwarded and handed over to Fastify to answer. */
export interface HandedOver {
  session: VerifiedSession;
  timing: UpstreamTiming;
  /** Replays the service's answer (so far, then live) into Fastify's handler of it. */
  attach(handler: Dispatcher.DispatchHandler): void;
}

const handedOver = new WeakMap<IncomingMessage, HandedOver>();

/** The hot path's state of a request it handed over to Fastify, if it did. */
export const handedOverOf = (req: IncomingMessage): HandedOver | undefined => handedOver.get(req);

/** Marks `req` as forwarded by the hot path, for Fastify to answer (`handedOverOf`). */
export const markHandedOver = (req: IncomingMessage, state: HandedOver): void => {
  handedOver.set(req, state);
};
