import { join } from 'node:path';
import type { TestInfra } from '@wayfarer/test-kit';

/** Ports of one stack: the gateway and each service. */
export interface StackPorts {
  gateway: number;
  auth: number;
  trips: number;
  bucketlist: number;
  social: number;
  journal: number;
  /** The two chat instances (the gateway spreads sockets over both). */
  chat: number;
  chat2: number;
  places: number;
  notifications: number;
}

export const DEFAULT_PORTS: StackPorts = {
  gateway: 8080,
  auth: 4001,
  trips: 4002,
  bucketlist: 4003,
  social: 4004,
  journal: 4005,
  chat: 4006,
  chat2: 4016,
  places: 4007,
  notifications: 4008,
};

/**
 * DEFAULT_PORTS moved up by `offset`: a stack of its own beside the dev one (e2e at +10000, the
 * clip recorder's and the soak's at +20000: they do not run at once; the idle and web benches'
 * at +30000).
 */
export const portsAt = (offset: number): StackPorts =>
  Object.fromEntries(
    Object.entries(DEFAULT_PORTS).map(([name, port]) => [name, port + offset]),
  ) as unknown as StackPorts;

export interface StackContext {
  root: string;
  infra: TestInfra;
  ports: StackPorts;
  /** Suffix for per-stack resources (databases), so a test stack never touches the dev one. */
  namespace: string;
  dataDir: string;
  logLevel: string;
  /** Signs (gateway) and checks (services) the identity proof of every proxied request. */
  identityProofSecret: string;
  /**
   * The session public key (PEM) of the key pair in `<dataDir>/keys`: the gateway gets only
   * this (in production it refuses a key dir holding the private key, which is auth's alone).
   */
  sessionPublicKey: string;
}

/** One process of the stack: where it lives, its port, its env, and its own databases. */
export interface StackProcess {
  name: string;
  dir: string;
  port: (ctx: StackContext) => number;
  databases?: string[];
  env: (ctx: StackContext, dbUrl: (name: string) => string) => Record<string, string>;
}

const common = (ctx: StackContext, port: number) => ({
  PORT: String(port),
  HOST: '127.0.0.1',
  LOG_LEVEL: ctx.logLevel,
  IDENTITY_PROOF_SECRET: ctx.identityProofSecret,
  // a test stack must not share consumer groups with the dev stack on the same Kafka
  KAFKA_GROUP_PREFIX: ctx.namespace ? `${ctx.namespace}-` : '',
});

/**
 * The services of the product, in start order (the gateway last). Each later service adds
 * its line here: that is all the local stack and the e2e tests need to know of it.
 */
export const STACK: StackProcess[] = [
  {
    name: 'auth',
    dir: 'services/auth',
    port: (ctx) => ctx.ports.auth,
    databases: ['auth'],
    env: (ctx, db) => ({
      ...common(ctx, ctx.ports.auth),
      // the session private key: auth's alone
      SESSION_KEY_DIR: join(ctx.dataDir, 'keys'),
      DATABASE_URL: db('auth'),
      REDIS_URL: ctx.infra.redisUrl,
      KAFKA_BROKERS: ctx.infra.kafkaBrokers.join(','),
      S3_ENDPOINT: ctx.infra.s3.endpoint,
      S3_ACCESS_KEY: ctx.infra.s3.accessKey,
      S3_SECRET_KEY: ctx.infra.s3.secretKey,
      AVATAR_BUCKET: ctx.namespace ? `avatars-${ctx.namespace}` : 'avatars',
    }),
  },
  {
    name: 'trips',
    dir: 'services/trips',
    port: (ctx) => ctx.ports.trips,
    env: (ctx) => ({
      ...common(ctx, ctx.ports.trips),
      MONGO_URL: ctx.infra.mongoUrl,
      MONGO_DB: ctx.namespace ? `trips_${ctx.namespace}` : 'trips',
      KAFKA_BROKERS: ctx.infra.kafkaBrokers.join(','),
      // the access fences (ended friendships, closed accounts)
      REDIS_URL: ctx.infra.redisUrl,
      S3_ENDPOINT: ctx.infra.s3.endpoint,
      S3_ACCESS_KEY: ctx.infra.s3.accessKey,
      S3_SECRET_KEY: ctx.infra.s3.secretKey,
      PHOTO_BUCKET: ctx.namespace ? `photos-${ctx.namespace}` : 'photos',
      // the account export asks each other area of the owning service
      AUTH_URL: `http://127.0.0.1:${ctx.ports.auth}`,
      BUCKETLIST_URL: `http://127.0.0.1:${ctx.ports.bucketlist}`,
      SOCIAL_URL: `http://127.0.0.1:${ctx.ports.social}`,
      JOURNAL_URL: `http://127.0.0.1:${ctx.ports.journal}`,
      CHAT_URL: `http://127.0.0.1:${ctx.ports.chat}`,
    }),
  },
  {
    name: 'bucketlist',
    dir: 'services/bucketlist',
    port: (ctx) => ctx.ports.bucketlist,
    databases: ['bucketlist'],
    env: (ctx, db) => ({
      ...common(ctx, ctx.ports.bucketlist),
      DATABASE_URL: db('bucketlist'),
      KAFKA_BROKERS: ctx.infra.kafkaBrokers.join(','),
    }),
  },
  {
    name: 'social',
    dir: 'services/social',
    port: (ctx) => ctx.ports.social,
    databases: ['social'],
    env: (ctx, db) => ({
      ...common(ctx, ctx.ports.social),
      DATABASE_URL: db('social'),
      KAFKA_BROKERS: ctx.infra.kafkaBrokers.join(','),
      // the access fences: an unfriending writes its pair's, search reads closed accounts'
      REDIS_URL: ctx.infra.redisUrl,
    }),
  },
  {
    name: 'journal',
    dir: 'services/journal',
    port: (ctx) => ctx.ports.journal,
    env: (ctx) => ({
      ...common(ctx, ctx.ports.journal),
      MONGO_URL: ctx.infra.mongoUrl,
      MONGO_DB: ctx.namespace ? `journal_${ctx.namespace}` : 'journal',
      KAFKA_BROKERS: ctx.infra.kafkaBrokers.join(','),
      // the access fences (ended friendships, closed accounts)
      REDIS_URL: ctx.infra.redisUrl,
    }),
  },
  ...(['chat', 'chat2'] as const).map((name): StackProcess => ({
    name,
    dir: 'services/chat',
    port: (ctx) => ctx.ports[name],
    env: (ctx) => ({
      ...common(ctx, ctx.ports[name]),
      MONGO_URL: ctx.infra.mongoUrl,
      // both instances share one database, one Redis and one consumer group per projection
      MONGO_DB: ctx.namespace ? `chat_${ctx.namespace}` : 'chat',
      REDIS_URL: ctx.infra.redisUrl,
      KAFKA_BROKERS: ctx.infra.kafkaBrokers.join(','),
    }),
  })),
  {
    name: 'places',
    dir: 'services/places',
    port: (ctx) => ctx.ports.places,
    env: (ctx) => common(ctx, ctx.ports.places),
  },
  {
    name: 'notifications',
    dir: 'services/notifications',
    port: (ctx) => ctx.ports.notifications,
    databases: ['notifications'],
    env: (ctx, db) => ({
      ...common(ctx, ctx.ports.notifications),
      DATABASE_URL: db('notifications'),
      KAFKA_BROKERS: ctx.infra.kafkaBrokers.join(','),
      // the live push: chat's instances relay what is published here to the user's sockets
      REDIS_URL: ctx.infra.redisUrl,
    }),
  },
  {
    name: 'gateway',
    dir: 'gateway',
    port: (ctx) => ctx.ports.gateway,
    env: (ctx) => ({
      ...common(ctx, ctx.ports.gateway),
      HOST: process.env.WAYFARER_HOST ?? '127.0.0.1',
      // the origin of share pages' absolute URLs: the URL `npm start` prints, or the dev
      // stack's WAYFARER_PUBLIC_URL (e.g. with WAYFARER_HOST=0.0.0.0, the address others use)
      PUBLIC_URL:
        (ctx.namespace ? undefined : process.env.WAYFARER_PUBLIC_URL) ??
        `http://localhost:${ctx.ports.gateway}`,
      SESSION_PUBLIC_KEY: ctx.sessionPublicKey,
      REDIS_URL: ctx.infra.redisUrl,
      AUTH_URL: `http://127.0.0.1:${ctx.ports.auth}`,
      TRIPS_URL: `http://127.0.0.1:${ctx.ports.trips}`,
      BUCKETLIST_URL: `http://127.0.0.1:${ctx.ports.bucketlist}`,
      SOCIAL_URL: `http://127.0.0.1:${ctx.ports.social}`,
      JOURNAL_URL: `http://127.0.0.1:${ctx.ports.journal}`,
      CHAT_URL: `http://127.0.0.1:${ctx.ports.chat}`,
      CHAT_URLS: [ctx.ports.chat, ctx.ports.chat2].map((p) => `http://127.0.0.1:${p}`).join(','),
      PLACES_URL: `http://127.0.0.1:${ctx.ports.places}`,
      NOTIFICATIONS_URL: `http://127.0.0.1:${ctx.ports.notifications}`,
      FRONTEND_DIST: join(ctx.root, 'frontend/dist'),
      // the e2e journeys sign up dozens of users from one loopback address within a minute, and
      // the fuzz suite sends about two thousand requests in one; the per-address limits
      // themselves are tested in gateway/test (edge, rate-limit, share)
      ...(ctx.namespace === 'e2e'
        ? {
            AUTH_RATE_LIMIT_PER_MINUTE: '1000',
            RATE_LIMIT_PER_MINUTE: '100000',
            SHARED_RATE_LIMIT_PER_MINUTE: '100000',
          }
        : {}),
    }),
  },
];
