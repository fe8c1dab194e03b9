// The layering rules of every service (docs/architecture.md "Service shape"), as ESLint
// flat-config objects spread into eslint.config.js. They go by globs, so a new service or package
// inherits them. The last rule, no import cycles (type-only imports included), is
// dependency-cruiser's (.dependency-cruiser.cjs, `npm run cycles`).
// deploy/test/layering.test.ts proves each rule still fails on a violation.
//
// 1. `domain/` is pure: no store, broker, HTTP framework, socket, file or network I/O, no HTTP
//    error (service-kit's HttpError and http helpers: service-kit is the service's machinery,
//    not rules), and no upper layer of its own service (store/, events/, routes/, app...).
//    Rules throw their own errors; routes map them to statuses.
// 2. The app's workspaces (packages/*, services/*, gateway, frontend) are imported by package
//    name, through what their package.json `exports` offer (a service's `src/index.ts`), never
//    by a relative path into their files nor `@wayfarer/x/src/...`; a workspace's relative
//    imports stay inside it.
// 3. The arrows between a service's folders run one way: routes/ and events/consumers/ call
//    usecases/, which load and save through store/.
//    - routes/ import no store/ (a type-only import is allowed: the route context names stores);
//    - store/ imports no usecases/, routes/, events/consumers/ or socket handlers;
//    - events/consumers/ import no store/ value (types are allowed) and no routes/;
//    - usecases/ import no routes/ and nothing of events/consumers/ (events/outbox.ts is fine).
//
// Rules 1 and 3 use typescript-eslint's no-restricted-imports and rule 2 ESLint's own: flat
// config replaces a rule's options per file rather than merging them, and a domain or routes file
// is under both. The folders of rules 1 and 3 do not overlap, so each file gets one option set.

const FILES = '*.{ts,tsx,mts,cts,js,mjs,cjs}';
/** How deep below a folder a file may be for the per-depth globs (deeper is not used). */
const MAX_DEPTH = 8;

/** What a domain module may not import (npm names and Node built-ins, bare and `node:`). */
const builtins = (names) => names.flatMap((n) => [n, `node:${n}`]);
const INFRA = [
  ...['mongodb', 'bson', 'pg', 'pg-*', 'kafkajs', 'ioredis', 'redis', 'minio', 'sharp', 'undici'],
  ...['fastify', 'fastify-*', '@fastify/*', 'socket.io', 'socket.io-*', '@socket.io/*'],
  ...builtins(['http', 'https', 'http2', 'net', 'tls', 'dgram', 'fs', 'child_process']),
];
const DOMAIN_PATTERNS = [
  {
    group: INFRA.flatMap((name) => (name.endsWith('*') ? [name] : [name, `${name}/*`])),
    message:
      'domain/ is pure rules: no store, broker, HTTP framework or I/O. Take what the rule needs ' +
      'as plain data or a parameter; store/ and events/ touch infra, routes/ speak HTTP.',
  },
  {
    group: [
      '@wayfarer/service-kit',
      '@wayfarer/service-kit/*',
      '@wayfarer/test-kit',
      '@wayfarer/test-kit/*',
    ],
    message:
      "domain/ throws no HTTP error and uses none of service-kit's HTTP/Kafka/store machinery: " +
      "throw the service's own error (e.g. domain/errors.ts) and map it to a status in routes/.",
  },
  {
    regex: '^@wayfarer/storage(/(?!image$).*)?$',
    message:
      "domain/ stores no objects: of @wayfarer/storage only the pure '@wayfarer/storage/image' " +
      '(image types) is allowed here.',
  },
  {
    regex: '^(\\.\\./)+(store|events|routes|usecases|socket|app|service|main|config)(/|$)',
    message:
      'domain/ is the bottom layer: it imports no store/, events/, routes/, use case, app, ' +
      'service or config of its service (they import domain/).',
  },
];

/** The app's workspaces, imported by package name only. */
const WORKSPACE_DIRS = '(services|packages|gateway|frontend)';
/** Folders holding workspaces, by the glob of one workspace. */
const WORKSPACES = ['services/*', 'packages/*', 'gateway', 'frontend'];
/** Tool and test folders at the root: they may import each other (scripts/stack...). */
const TOOL_DIRS = ['bench', 'e2e', 'scripts', 'deploy'];

const INTERNALS_MESSAGE =
  "Import another workspace by its package name (@wayfarer/<name>) and what its package.json 'exports' " +
  "offer (a service's src/index.ts): add what you need there rather than reaching into its files.";
const DEEP_PACKAGE_IMPORT = {
  regex: '^@wayfarer/[^/]+/(src|test)(/|$)',
  message: INTERNALS_MESSAGE,
};

/** `dir/*.ts`, `dir/* /*.ts`, ... with the depth of each (0 = directly in dir). */
const byDepth = (dir) =>
  Array.from({ length: MAX_DEPTH }, (_, depth) => ({
    depth,
    glob: `${dir}/${'*/'.repeat(depth)}${FILES}`,
  }));

const boundaryConfigs = [
  // a workspace's relative imports do not leave it (depth + 1 `../` reach its parent folder)
  ...WORKSPACES.flatMap((ws) =>
    byDepth(ws).map(({ depth, glob }) => ({
      files: [glob],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              { regex: `^(\\.\\./){${depth + 1},}`, message: INTERNALS_MESSAGE },
              DEEP_PACKAGE_IMPORT,
            ],
          },
        ],
      },
    })),
  ),
  // bench/, e2e/, scripts/, deploy/: no relative path into a workspace (the root is depth + 1 up)
  ...TOOL_DIRS.flatMap((dir) =>
    byDepth(dir).map(({ depth, glob }) => ({
      files: [glob],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              { regex: `^(\\.\\./){${depth + 1}}${WORKSPACE_DIRS}/`, message: INTERNALS_MESSAGE },
              DEEP_PACKAGE_IMPORT,
            ],
          },
        ],
      },
    })),
  ),
];

/** A relative import of the service's own `folder` (a folder or a module of that name). */
const ownFolder = (folders) => `^(\\.\\./)+(${folders.join('|')})(/|$)`;

const SERVICE_SRC = 'services/*/src';

/** Rule 3: what each of a service's folders may not import, relative paths of its own src/. */
const SERVICE_FOLDERS = [
  {
    files: [`${SERVICE_SRC}/routes/**/${FILES}`],
    patterns: [
      {
        regex: ownFolder(['store']),
        allowTypeImports: true,
        message:
          'routes/ validate input, call one use case and reply: they import no store/ value ' +
          '(`import type` for the route context is fine). Put the work in a use case (usecases/).',
      },
    ],
  },
  {
    files: [`${SERVICE_SRC}/store/**/${FILES}`],
    patterns: [
      {
        regex: ownFolder(['usecases', 'routes', 'events/consumers', 'socket']),
        message:
          'store/ is below the use cases: a repository imports no use case, route, consumer or ' +
          'socket handler (they import it). Move the shared piece down into store/ or domain/.',
      },
    ],
  },
  {
    files: [
      `${SERVICE_SRC}/events/consumers/**/${FILES}`,
      `${SERVICE_SRC}/events/consumers.{ts,mts,js,mjs}`,
    ],
    patterns: [
      {
        regex: ownFolder(['store']),
        allowTypeImports: true,
        message:
          'A consumer calls a use case (usecases/), which loads and saves through store/: it ' +
          'imports no store/ value (`import type` is fine).',
      },
      {
        regex: ownFolder(['routes']),
        message: 'A consumer imports no routes/: both call use cases (usecases/).',
      },
    ],
  },
  {
    files: [`${SERVICE_SRC}/usecases/**/${FILES}`],
    patterns: [
      {
        regex: ownFolder(['routes', 'events/consumers']),
        message:
          'usecases/ are called by routes/ and events/consumers/ and import neither ' +
          '(events/outbox.ts, what the service publishes, is fine).',
      },
    ],
  },
];

export const layering = [
  ...boundaryConfigs,
  {
    files: [`${SERVICE_SRC}/domain/**/${FILES}`],
    rules: {
      // type-only imports too: a domain type shaped by the driver (ObjectId) ties it to the driver
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: DOMAIN_PATTERNS }],
    },
  },
  ...SERVICE_FOLDERS.map(({ files, patterns }) => ({
    files,
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] },
  })),
];
