import { z } from 'zod';
import { commonEnv, ConfigError, identityProofEnv, loadConfig } from '@wayfarer/service-kit';

const url = z.url();

export const GatewayEnv = z.object({
  ...commonEnv,
  PORT: z.coerce.number().int().min(1).max(65535).default(8080),
  REDIS_URL: url,
  /** Signs the identity proof of every proxied request (service-kit `identity-proof.ts`). */
  ...identityProofEnv,
  SESSION_PUBLIC_KEY: z.string().optional(),
  SESSION_KEY_DIR: z.string().optional(),
  AUTH_URL: url.default('http://127.0.0.1:4001'),
  TRIPS_URL: url.default('http://127.0.0.1:4002'),
  BUCKETLIST_URL: url.default('http://127.0.0.1:4003'),
  SOCIAL_URL: url.default('http://127.0.0.1:4004'),
  JOURNAL_URL: url.default('http://127.0.0.1:4005'),
  CHAT_URL: url.default('http://127.0.0.1:4006'),
  /**
   * The chat instances the gateway spreads sockets over (`/socket.io/` websocket upgrades,
   * round-robin per upgrade), comma-separated; unset: CHAT_URL alone.
   */
  CHAT_URLS: z
    .string()
    .optional()
    .transform((v) =>
      v
        ? v
            .split(',')
            .map((u) => u.trim())
            .filter((u) => u !== '')
        : undefined,
    )
    .pipe(z.array(url).min(1).optional()),
  PLACES_URL: url.default('http://127.0.0.1:4007'),
  NOTIFICATIONS_URL: url.default('http://127.0.0.1:4008'),
  /**
   * The gateway's public origin as its users reach it (`https://wayfarer.example`, no path):
   * the one source of the absolute URLs it writes (a share page's `og:url` and `og:image`),
   * never the request's Host or X-Forwarded-Host, which the sender chooses and which link
   * previews and caches in front would keep. Required when NODE_ENV=production (like
   * IDENTITY_PROOF_SECRET); elsewhere `http://localhost:<PORT>` (`publicOrigin`).
   */
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL, e.g. https://wayfarer.example' })
    .refine((value) => {
      if (!URL.canParse(value)) return true; // (said by the check above)
      const url = new URL(value);
      return url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
    }, 'must be an origin only (scheme, host and port): no path, query, fragment or user')
    .optional(),
  /** The built frontend (`frontend/dist`); when unset the gateway serves only `/api`. */
  FRONTEND_DIST: z.string().optional(),
  /** Requests per minute per client IP on `/api` (all routes together). */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
  /** Requests per minute per client IP on login and register. */
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(30),
  /**
   * Requests per minute per client IP on share links: `/api/shared/...` and the
   * `/s/{token}` pages together, a count of their own. One view of a page is the page, its
   * JSON and up to 40 photos.
   */
  SHARED_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(300),
  /** Google Maps JS key for the browser (restrict it by HTTP referrer). Unset: keyless map. */
  GOOGLE_MAPS_API_KEY: z.string().min(1).optional(),
  /**
   * Which proxies in front of the gateway to trust for the client address (X-Forwarded-For):
   * unset/false when the gateway is the edge; a hop count (e.g. 1 behind one Ingress), or a
   * comma-separated list of proxy addresses/CIDRs. Rate limits and login throttles key on it.
   */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v): boolean | string | ((address: string, hop: number) => boolean) => {
      if (v === undefined || v === '' || v === 'false') return false;
      if (v === 'true') return true;
      if (!/^\d+$/.test(v)) return v;
      const hops = Number(v);
      return (_address, hop) => hop < hops; // trust the first `hops` proxies
    }),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  /**
   * The hot path (`hot-path.ts`): GETs of proxied `/api` routes with a valid session forwarded
   * before Fastify, the same answers. `off` sends every request through Fastify (to compare).
   */
  HOT_PATH: z.enum(['on', 'off']).default('on'),
  /**
   * Where the gateway serves Prometheus's `GET /metrics`: never on its public port, on this
   * one (default PORT + GATEWAY_METRICS_PORT_OFFSET; 0: any free port) of METRICS_HOST
   * (default loopback).
   */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().default('127.0.0.1'),
});
export type GatewayConfig = z.infer<typeof GatewayEnv>;

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const config = loadConfig(GatewayEnv, env);
  if (config.NODE_ENV === 'production' && config.PUBLIC_URL === undefined) {
    throw new ConfigError([
      'PUBLIC_URL is missing (required when NODE_ENV=production: the origin users reach the ' +
        "gateway at, e.g. https://wayfarer.example; absolute URLs such as a share page's " +
        'og:url are built from it, never from the request)',
    ]);
  }
  return config;
}

/**
 * The origin of every absolute URL the gateway writes (`https://wayfarer.example`): PUBLIC_URL,
 * else (outside production) the local one, `http://localhost:<PORT>`.
 */
export function publicOrigin(config: Pick<GatewayConfig, 'PUBLIC_URL' | 'PORT'>): string {
  return new URL(config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).origin;
}

/** The gateway's metrics port when METRICS_PORT is unset: its port + 1000 (8080 -> 9080). */
export const GATEWAY_METRICS_PORT_OFFSET = 1000;

export function metricsPortOf(config: Pick<GatewayConfig, 'PORT' | 'METRICS_PORT'>): number {
  return config.METRICS_PORT ?? config.PORT + GATEWAY_METRICS_PORT_OFFSET;
}

export function upstreamUrls(config: GatewayConfig) {
  return {
    auth: config.AUTH_URL,
    trips: config.TRIPS_URL,
    bucketlist: config.BUCKETLIST_URL,
    social: config.SOCIAL_URL,
    journal: config.JOURNAL_URL,
    chat: config.CHAT_URL,
    places: config.PLACES_URL,
    notifications: config.NOTIFICATIONS_URL,
  } as const;
}

/** The chat instances sockets are spread over. */
export const chatSocketUrls = (config: GatewayConfig): string[] =>
  config.CHAT_URLS ?? [config.CHAT_URL];
