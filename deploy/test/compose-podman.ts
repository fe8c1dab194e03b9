import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { TestInfra } from '@wayfarer/test-kit';
import { DEFAULT_PORTS, STACK, type StackContext } from '../../scripts/stack/services';

/**
 * docker-compose.yml's service definitions run with plain `podman run` on this machine
 * (compose-up.test.ts). Each definition is used as written, except what cannot be here, each
 * rewritten by one rule below:
 *
 * - the infra services' images (postgres, redis, apache/kafka, mongo, minio) come from Docker
 *   Hub, which is out of reach: deploy/local's servers on loopback stand in, so the apps run on
 *   the host's network (`--network=host`) and every `host:port` of an infra service becomes the
 *   local server's address (`mongodb://mongo:27017/?replicaSet=rs0` the local MongoDB-wire URL);
 * - on the host's network the apps' ports would collide with the dev stack: each app listens on
 *   its compose port + `offset` on 127.0.0.1 (PORT, HOST), and `http://<app>:<port>` becomes
 *   `http://127.0.0.1:<port + offset>` (in env values and in healthcheck commands);
 * - this run keeps its data apart from the dev and e2e stacks on the same infra, by the keys the
 *   local stack runner namespaces (scripts/stack/services.ts: database names, MongoDB databases,
 *   buckets, consumer group prefix), computed from that one registry;
 * - `${VAR:-default}` is interpolated from the variables given (compose reads the shell's).
 */

export interface ComposeService {
  image?: string;
  build?: { context?: string; dockerfile?: string; args?: Record<string, string> };
  command?: string[];
  environment?: Record<string, string | number>;
  volumes?: string[];
  ports?: string[];
  healthcheck?: {
    test?: string[];
    interval?: string;
    timeout?: string;
    retries?: number;
    start_period?: string;
  };
  depends_on?: Record<string, { condition?: string }>;
  restart?: string;
}

export interface Compose {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

export function loadCompose(root: string): Compose {
  return parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8')) as Compose;
}

/** Compose's variable interpolation: `${NAME}`, `${NAME:-default}`, `${NAME-default}`, `$$`. */
export function interpolate(value: string, vars: Record<string, string | undefined>): string {
  return value.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?-)([^}]*))?\}/g,
    (whole, name: string | undefined, op: string | undefined, fallback: string | undefined) => {
      if (whole === '$$') return '$';
      const v = vars[name!];
      if (op === ':-') return v ? v : (fallback ?? '');
      if (op === '-') return v ?? fallback ?? '';
      return v ?? '';
    },
  );
}

/** How the compose file maps onto this machine (see the top). */
export interface HostPlan {
  infra: TestInfra;
  /** Added to every app's port. */
  offset: number;
  /** Data namespace of this run (database names, groups, buckets). */
  namespace: string;
  /** Variables for `${...}` interpolation. */
  vars: Record<string, string | undefined>;
}

/** The app services: those built from the repo (the rest is infra, or the secrets maker). */
export function appNames(compose: Compose): string[] {
  return Object.entries(compose.services)
    .filter(([, s]) => s.build !== undefined)
    .map(([name]) => name);
}

const INFRA = ['postgres', 'redis', 'kafka', 'minio', 'mongo'] as const;

function infraAddress(host: (typeof INFRA)[number], infra: TestInfra): string {
  switch (host) {
    case 'postgres':
      return new URL(infra.pgUrl).host;
    case 'redis':
      return new URL(infra.redisUrl).host;
    case 'kafka':
      return infra.kafkaBrokers.join(',');
    case 'minio':
      return new URL(infra.s3.endpoint).host;
    case 'mongo':
      return new URL(infra.mongoUrl).host;
  }
}

/** The port an app listens on in the compose file. */
export function composePort(service: ComposeService): number {
  const port = Number(service.environment?.PORT);
  if (!Number.isInteger(port)) throw new Error('an app service without a numeric PORT');
  return port;
}

/** One env value with the compose hosts rewritten to this machine's addresses. */
export function rewriteValue(value: string, compose: Compose, plan: HostPlan): string {
  if (/^mongodb:\/\/mongo[:/]/.test(value)) return plan.infra.mongoUrl;
  const apps = new Set(appNames(compose));
  return value.replace(
    /(^|,|\/\/|@)([a-z][a-z0-9-]*):(\d+)/g,
    (whole, before: string, host: string, port: string) => {
      if ((INFRA as readonly string[]).includes(host)) {
        return `${before}${infraAddress(host as (typeof INFRA)[number], plan.infra)}`;
      }
      if (apps.has(host)) return `${before}127.0.0.1:${Number(port) + plan.offset}`;
      return whole;
    },
  );
}

/**
 * The keys the local stack runner gives a namespaced stack different values for (databases,
 * MongoDB databases, buckets, the consumer group prefix), with this run's values.
 */
function namespacedEnv(name: string, plan: HostPlan): Record<string, string> {
  const proc = STACK.find((p) => p.name === name);
  if (!proc) return {};
  const ctx = (namespace: string): StackContext => ({
    root: '/',
    infra: plan.infra,
    ports: DEFAULT_PORTS,
    namespace,
    dataDir: '/',
    logLevel: 'info',
    identityProofSecret: '',
    sessionPublicKey: '',
  });
  const db = (namespace: string) => (base: string) => {
    const url = new URL(plan.infra.pgUrl);
    url.pathname = `/${namespace ? `${base}_${namespace}` : base}`;
    return url.toString();
  };
  const plain = proc.env(ctx(''), db(''));
  const spaced = proc.env(ctx(plan.namespace), db(plan.namespace));
  return Object.fromEntries(Object.entries(spaced).filter(([k, v]) => plain[k] !== v));
}

/** The PostgreSQL databases an app's env names (created before it starts, as compose's volume has `auth`). */
export function databasesOf(env: Record<string, string>): string[] {
  return env.DATABASE_URL ? [new URL(env.DATABASE_URL).pathname.slice(1)] : [];
}

/** An app's environment on this machine. */
export function appEnv(name: string, compose: Compose, plan: HostPlan): Record<string, string> {
  const service = compose.services[name]!;
  const env: Record<string, string> = {};
  for (const [key, raw] of Object.entries(service.environment ?? {})) {
    env[key] = rewriteValue(interpolate(String(raw), plan.vars), compose, plan);
  }
  env.PORT = String(composePort(service) + plan.offset);
  env.HOST = '127.0.0.1';
  return { ...env, ...namespacedEnv(name, plan) };
}

/** `-v` arguments: named volumes get the project's prefix, relative binds the repo's path. */
export function volumeArgs(service: ComposeService, project: string, root: string): string[] {
  return (service.volumes ?? []).flatMap((spec) => {
    const [source, ...rest] = spec.split(':');
    const host = source!.startsWith('.') ? join(root, source!) : `${project}_${source}`;
    return ['-v', [host, ...rest].join(':')];
  });
}

/** The service's healthcheck as podman's `--health-*` options (its port moved by the offset). */
export function healthArgs(service: ComposeService, plan: HostPlan): string[] {
  const hc = service.healthcheck;
  if (!hc?.test) return [];
  const [kind, ...rest] = hc.test;
  if (kind !== 'CMD') throw new Error(`healthcheck kind ${kind} is not handled here`);
  const port = composePort(service);
  const command = rest.map((arg) =>
    arg.replaceAll(`127.0.0.1:${port}/`, `127.0.0.1:${port + plan.offset}/`),
  );
  return [
    '--health-cmd',
    JSON.stringify(command),
    ...(hc.interval ? ['--health-interval', hc.interval] : []),
    ...(hc.timeout ? ['--health-timeout', hc.timeout] : []),
    ...(hc.retries !== undefined ? ['--health-retries', String(hc.retries)] : []),
    ...(hc.start_period ? ['--health-start-period', hc.start_period] : []),
  ];
}

/** Seconds compose would wait for `service_healthy` at most: start period + interval x retries. */
export function healthBudgetSeconds(service: ComposeService): number {
  const seconds = (d: string | undefined, fallback: number) =>
    d ? Number(/^(\d+)s$/.exec(d)?.[1] ?? fallback) : fallback;
  const hc = service.healthcheck ?? {};
  return seconds(hc.start_period, 0) + seconds(hc.interval, 30) * (hc.retries ?? 3);
}

/** Apps in an order where each one's app dependencies come first. */
export function startOrder(compose: Compose): string[][] {
  const apps = appNames(compose);
  const waves: string[][] = [];
  const started = new Set<string>();
  while (started.size < apps.length) {
    const wave = apps.filter(
      (name) =>
        !started.has(name) &&
        Object.keys(compose.services[name]!.depends_on ?? {})
          .filter((dep) => apps.includes(dep))
          .every((dep) => started.has(dep)),
    );
    if (wave.length === 0) throw new Error('a dependency cycle among the apps');
    wave.forEach((name) => started.add(name));
    waves.push(wave);
  }
  return waves;
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs podman with our containers.conf (runc, explicit ulimits); resolves with its output. */
export function podman(
  args: string[],
  options: { confFile: string; check?: boolean },
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('podman', args, {
      env: { ...process.env, CONTAINERS_CONF: options.confFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const run = { code: code ?? -1, stdout, stderr };
      if (options.check !== false && run.code !== 0) {
        const tail = `${stdout.slice(-2000)}\n${stderr.slice(-2000)}`.trim();
        reject(new Error(`podman ${args.slice(0, 3).join(' ')} ... exited ${run.code}:\n${tail}`));
      } else resolve(run);
    });
  });
}
