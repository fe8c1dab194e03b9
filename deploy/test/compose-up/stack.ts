import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { vi } from 'vitest';
import { ensureDatabase } from '@wayfarer/service-kit/pg';
import { localEnvFile, parseEnvFile, testInfra } from '@wayfarer/test-kit';
import {
  appEnv,
  appNames,
  databasesOf,
  healthArgs,
  healthBudgetSeconds,
  loadCompose,
  podman,
  startOrder,
  volumeArgs,
  type HostPlan,
} from '../compose-podman';

// docker-compose.yml's apps built and started with podman for compose-up.test.ts (its header
// says how and what it costs): the images, the containers, their health, and the teardown.

export const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const confFile = join(root, 'deploy/images/containers.conf');
export const pm = (args: string[], check = true) => podman(args, { confFile, check });

const PROJECT = 'wayfarer-compose-test';
const OFFSET = Number(process.env.WAYFARER_COMPOSE_PORT_OFFSET ?? 22_000);
const compose = loadCompose(root);
export const apps = appNames(compose);
export const localEnv: Record<string, string> = {
  ...(existsSync(localEnvFile) ? parseEnvFile(readFileSync(localEnvFile, 'utf8')) : {}),
  ...(process.env as Record<string, string>),
};
const plan: HostPlan = { infra: testInfra(), offset: OFFSET, namespace: 'compose', vars: {} };
export const container = (service: string) => `${PROJECT}-${service}`;
/**
 * The host's network (the infra is on loopback), and each container's cgroup under the root one:
 * with cgroups v1 podman puts every container under `/libpod_parent`, whose CPU weight is one
 * process's, so on a busy machine all the apps together got one process's share of the CPU
 * (seen: an app not started after two minutes at load 20).
 */
const HOST_RESOURCES = ['--network=host', '--cgroup-parent=/'];
/**
 * Builds run their RUN steps in a chroot (buildah's chroot isolation) rather than in runc
 * containers: no cgroup of their own (buildah's `--cgroup-parent=/` would be the root cgroup
 * itself), so npm ci and the compilers get an ordinary process's CPU share; same layers.
 */
const BUILD_ISOLATION = ['--isolation', 'chroot', '--network=host'];
/** App images built at once after the first (which builds the shared stages alone). */
const BUILD_CONCURRENCY = 3;
const gatewayPort = Number(compose.services.gateway!.environment!.PORT) + OFFSET;
export const base = `http://127.0.0.1:${gatewayPort}`;
const logDir = join(root, '.data/compose-test');

/** Images built here (compose's `image:` of each app), with their build definition. */
export const images = new Map(apps.map((name) => [compose.services[name]!.image!, name]));
const timings: Record<string, number> = {};
async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await fn();
  } finally {
    timings[label] = (Date.now() - started) / 1000;
    console.log(`compose test: ${label} took ${timings[label].toFixed(0)} s`);
  }
}

/** The build context as the working tree has it now (tracked and new files), frozen for all builds. */
function snapshotContext(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wayfarer-context-'));
  const files = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    },
  )
    .toString()
    .split('\0')
    .filter((f) => f && existsSync(join(root, f)));
  execFileSync('tar', ['-cf', join(dir, '.files.tar'), '--null', '-T', '-'], {
    cwd: root,
    input: files.join('\0'),
    maxBuffer: 64 * 1024 * 1024,
  });
  execFileSync('tar', ['-xf', '.files.tar'], { cwd: dir });
  rmSync(join(dir, '.files.tar'));
  return dir;
}

async function build(image: string, service: string, nodeImage: string, context: string) {
  const spec = compose.services[service]!.build!;
  const args = ['build', ...BUILD_ISOLATION, '--format', 'docker', '-t', image];
  args.push('-f', join(context, spec.dockerfile ?? 'Dockerfile'));
  args.push('--build-arg', `NODE_IMAGE=${nodeImage}`);
  for (const [k, v] of Object.entries(spec.args ?? {})) args.push('--build-arg', `${k}=${v}`);
  // a TLS-inspecting proxy between this machine and the npm registry: its CA for npm ci
  const ca = process.env.NODE_EXTRA_CA_CERTS;
  if (ca && existsSync(ca)) {
    args.push(
      '-v',
      `${ca}:/run/host-ca.crt:ro`,
      '--build-arg',
      'NODE_EXTRA_CA_CERTS=/run/host-ca.crt',
    );
  }
  await pm([...args, join(context, spec.context ?? '.')]);
}

interface ImageInfo {
  Size: number;
  Config: { User?: string; Cmd?: string[]; Env?: string[] };
  /** podman's inspect has the image's HEALTHCHECK here (docker's under Config). */
  Healthcheck?: { Test?: string[] };
}
export const inspectImage = async (image: string) =>
  (JSON.parse((await pm(['image', 'inspect', image])).stdout) as ImageInfo[])[0]!;

async function waitHealthy(service: string): Promise<void> {
  const name = container(service);
  const port = Number(compose.services[service]!.environment!.PORT) + OFFSET;
  const budget = healthBudgetSeconds(compose.services[service]!) * 1000;
  const running = async () => {
    const state = (await pm(['inspect', '-f', '{{.State.Status}} {{.RestartCount}}', name])).stdout
      .trim()
      .split(' ');
    if (state[0] !== 'running' || state[1] !== '0') {
      const logs = await pm(['logs', '--tail', '30', name], false);
      throw new Error(`${service} is ${state.join(', restarts ')}:\n${logs.stdout}${logs.stderr}`);
    }
  };
  // its /readyz answers on the host's network (cheap to ask every half second)...
  await vi.waitFor(
    async () => {
      await running();
      const res = await fetch(`http://127.0.0.1:${port}/readyz`, {
        signal: AbortSignal.timeout(2000),
      });
      if (!res.ok) throw new Error(`${service}: /readyz ${res.status}`);
    },
    { timeout: budget, interval: 500 },
  );
  // ...and compose's `service_healthy`: the service's own healthcheck command passes in it
  await vi.waitFor(
    async () => {
      await running();
      const check = await pm(['healthcheck', 'run', name], false);
      if (check.code !== 0)
        throw new Error(`${service}: healthcheck ${check.stdout}${check.stderr}`);
    },
    { timeout: budget, interval: 2000 },
  );
}

/** Removes the run's containers and its volumes. */
async function removeContainers(): Promise<void> {
  const names = [...apps, 'secrets'].map(container);
  // `-t 10`: SIGTERM first, as `docker compose down` does (the apps drain)
  await pm(['rm', '-f', '-t', '10', '--ignore', ...names], false);
  await pm(
    ['volume', 'rm', '-f', ...Object.keys(compose.volumes ?? {}).map((v) => `${PROJECT}_${v}`)],
    false,
  );
}

/** Builds every app image, then starts the apps wave by wave, each healthy before the next. */
export async function startStack(): Promise<void> {
  const sizes: Record<string, number> = {};
  mkdirSync(logDir, { recursive: true });
  const nodeImage = await timed('base image', async () =>
    execFileSync('bash', [join(root, 'deploy/images/base.sh')], { encoding: 'utf8' }).trim(),
  );
  const context = snapshotContext();
  try {
    await timed('image builds', async () => {
      // the first builds the stages every app shares (npm ci, every app compiled); the others
      // reuse those layers and add their own two, a few at a time (mostly layer commits,
      // waiting on the disk more than on the CPU)
      const [first, ...rest] = [...images];
      await timed(`build ${first![0]}`, () => build(first![0], first![1], nodeImage, context));
      const queue = [...rest];
      await Promise.all(
        Array.from({ length: BUILD_CONCURRENCY }, async () => {
          for (let next = queue.shift(); next; next = queue.shift()) {
            const [image, service] = next;
            await timed(`build ${image}`, () => build(image, service, nodeImage, context));
          }
        }),
      );
    });
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
  for (const image of images.keys()) sizes[image] = (await inspectImage(image)).Size;

  await removeContainers();
  for (const name of apps) {
    for (const db of databasesOf(appEnv(name, compose, plan)))
      await ensureDatabase(plan.infra.pgUrl, db);
  }

  await timed('start', async () => {
    // the one-shot secrets maker (compose's image is node:24-slim, out of reach: the base)
    const secrets = compose.services.secrets!;
    const secretsImage =
      (await pm(['image', 'exists', secrets.image!], false)).code === 0
        ? secrets.image!
        : nodeImage;
    await pm([
      'run',
      '--rm',
      '--name',
      container('secrets'),
      '--network=none',
      ...volumeArgs(secrets, PROJECT, root),
      secretsImage,
      ...(secrets.command ?? []),
    ]);
    // traces to deploy/local's Jaeger when it runs (the compiled preload, checked below)
    const otel = localEnv.OTEL_EXPORTER_OTLP_ENDPOINT
      ? {
          OTEL_EXPORTER_OTLP_ENDPOINT: localEnv.OTEL_EXPORTER_OTLP_ENDPOINT,
          OTEL_EXPORTER_OTLP_PROTOCOL: localEnv.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf',
          OTEL_BSP_SCHEDULE_DELAY: '1000',
        }
      : {};
    for (const wave of startOrder(compose)) {
      for (const name of wave) {
        const service = compose.services[name]!;
        const env = { ...appEnv(name, compose, plan), ...otel };
        await pm([
          'run',
          '-d',
          '--name',
          container(name),
          ...HOST_RESOURCES,
          ...(service.restart ? ['--restart', service.restart] : []),
          ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
          ...volumeArgs(service, PROJECT, root),
          ...healthArgs(service, plan),
          service.image!,
        ]);
      }
      await Promise.all(wave.map(waitHealthy));
    }
  });
  console.log(
    `compose test: ${Object.entries(timings)
      .map(([k, v]) => `${k} ${v.toFixed(0)} s`)
      .join(', ')}; ` +
      `images ${Object.entries(sizes)
        .map(([k, v]) => `${k} ${(v / 1e6).toFixed(0)} MB`)
        .join(', ')}`,
  );
}

/** Keeps each app's logs in .data/compose-test, removes the containers and volumes. */
export async function stopStack(): Promise<void> {
  for (const name of apps) {
    const logs = await pm(['logs', container(name)], false);
    try {
      execFileSync('tee', [join(logDir, `${name}.log`)], {
        input: logs.stdout + logs.stderr,
        stdio: ['pipe', 'ignore', 'ignore'],
      });
    } catch {
      /* logs are a courtesy */
    }
  }
  await removeContainers();
  // layers older than two days (earlier sources, lockfiles): the disk stays bounded
  await pm(['image', 'prune', '-f', '--filter', 'until=48h'], false);
}
