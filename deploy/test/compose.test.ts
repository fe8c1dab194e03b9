import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DEFAULT_PORTS, STACK } from '../../scripts/stack/services';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

interface Healthcheck {
  test?: string | string[];
}
interface Service {
  image?: string;
  volumes?: string[];
  build?: string | { context?: string; dockerfile?: string; args?: Record<string, string> };
  command?: string | string[];
  environment?: Record<string, string | number> | string[];
  ports?: string[];
  healthcheck?: Healthcheck;
  depends_on?: Record<string, { condition?: string }> | string[];
  restart?: string;
}

const compose = parse(read('docker-compose.yml')) as { services: Record<string, Service> };
const services = compose.services;
const names = Object.keys(services);

const INFRA: Record<string, RegExp> = {
  postgres: /^postgres:15(\.|$)/,
  redis: /^redis:7(\.|$)/,
  kafka: /^apache\/kafka:3\.9\.1$/,
  mongo: /^mongo:7(\.|$)/,
  minio: /^minio\/minio(:|$)/,
};
// The app services are the processes of the local stack (one registry for both), on the same ports.
const APPS: Record<string, { workspace: string; port: number }> = Object.fromEntries(
  STACK.map((proc) => [
    proc.name,
    { workspace: proc.dir, port: DEFAULT_PORTS[proc.name as keyof typeof DEFAULT_PORTS] },
  ]),
);

/** The app processes of each workspace, in stack order (chat runs twice: chat, chat2). */
const INSTANCES = new Map<string, string[]>();
for (const [name, app] of Object.entries(APPS)) {
  INSTANCES.set(app.workspace, [...(INSTANCES.get(app.workspace) ?? []), name]);
}

function env(service: Service): Record<string, string> {
  const e = service.environment ?? {};
  if (Array.isArray(e)) {
    return Object.fromEntries(e.map((kv) => [kv.split('=')[0]!, kv.split('=').slice(1).join('=')]));
  }
  return Object.fromEntries(Object.entries(e).map(([k, v]) => [k, String(v)]));
}
/** The one-shot service generating the apps' secrets (deploy/compose/secrets.mjs). */
const SECRETS = 'secrets';
const healthText = (s: Service) =>
  Array.isArray(s.healthcheck?.test) ? s.healthcheck.test.join(' ') : (s.healthcheck?.test ?? '');

describe('docker-compose.yml', () => {
  it('has exactly the infra and app services of the architecture, and the secrets maker', () => {
    expect(names.sort()).toEqual([...Object.keys(INFRA), ...Object.keys(APPS), SECRETS].sort());
  });

  it.each(names.filter((n) => n !== SECRETS))(
    '%s has an image or a build, and a healthcheck',
    (name) => {
      const s = services[name]!;
      expect(s.image ?? s.build, `${name}: image or build`).toBeTruthy();
      expect(healthText(s), `${name}: healthcheck.test`).not.toBe('');
    },
  );

  it.each(Object.entries(INFRA))('%s uses the official image', (name, image) => {
    expect(services[name]?.image).toMatch(image);
    expect(services[name]?.build).toBeUndefined();
  });

  it('runs mongo as a one-node replica set that initiates itself', () => {
    expect([services.mongo!.command].flat().join(' ')).toMatch(/--replSet rs0/);
    expect(healthText(services.mongo!)).toMatch(/rs\.initiate/);
  });

  it.each(Object.entries(APPS))(
    '%s is built from the root Dockerfile with its workspace',
    (name, app) => {
      const s = services[name]!;
      expect(typeof s.build).toBe('object');
      const build = s.build as Exclude<Service['build'], string | undefined>;
      expect(build.context).toBe('.');
      expect(build.dockerfile ?? 'Dockerfile').toBe('Dockerfile');
      expect(build.args?.WORKSPACE).toBe(app.workspace);
    },
  );

  it.each(Object.entries(APPS))(
    '%s has an environment with its port and a /readyz healthcheck (ready, not only alive)',
    (name, app) => {
      const e = env(services[name]!);
      expect(e.PORT).toBe(String(app.port));
      expect(e.HOST, `${name} must listen on all interfaces inside its container`).toBe('0.0.0.0');
      expect(healthText(services[name]!)).toContain(`http://127.0.0.1:${app.port}/readyz`);
    },
  );

  it('publishes the gateway on 8080 and gives it every service URL', () => {
    expect(services.gateway!.ports).toContain('8080:8080');
    const e = env(services.gateway!);
    for (const [workspace, instances] of INSTANCES) {
      if (workspace === 'gateway') continue;
      const [first] = instances;
      const url = (name: string) => `http://${name}:${APPS[name]!.port}`;
      expect(e[`${first!.toUpperCase()}_URL`], workspace).toBe(url(first!));
      // a workspace run as several instances (chat, chat2): the gateway gets them all
      if (instances.length > 1) {
        expect(e[`${first!.toUpperCase()}_URLS`], workspace).toBe(instances.map(url).join(','));
      }
    }
    expect(e.FRONTEND_DIST).toBe('/app/frontend/dist');
  });

  it("gives the gateway its public origin (the image's production gateway needs one): the host env's, else the published port's", () => {
    expect(env(services.gateway!).PUBLIC_URL).toBe('${PUBLIC_URL:-http://localhost:8080}');
  });

  it('runs the chat instances on one database and one Redis, like the local stack', () => {
    const [first, ...others] = INSTANCES.get('services/chat') ?? [];
    expect(others.length).toBeGreaterThan(0);
    const shared = (name: string) => {
      const e = env(services[name]!);
      return [e.MONGO_URL, e.MONGO_DB, e.REDIS_URL, e.CHAT_ADAPTER, e.KAFKA_BROKERS];
    };
    for (const other of others) expect(shared(other), other).toEqual(shared(first!));
  });

  it('points app services only at hosts that exist in the file', () => {
    for (const name of Object.keys(APPS)) {
      for (const [key, value] of Object.entries(env(services[name]!))) {
        const m = /^[a-z]+:\/\/(?:[^@/]*@)?([a-z0-9-]+)(?::\d+)?/.exec(value);
        if (m) expect(names, `${name}.${key}=${value}`).toContain(m[1]);
        if (key === 'KAFKA_BROKERS') expect(value).toBe('kafka:9092');
      }
    }
  });

  it.each(names)('%s: every depends_on waits for a healthy, existing service', (name) => {
    const deps = services[name]!.depends_on;
    if (deps === undefined) return;
    expect(Array.isArray(deps), `${name}: depends_on must be a map with conditions`).toBe(false);
    for (const [dep, cond] of Object.entries(deps as Record<string, { condition?: string }>)) {
      expect(names, `${name} depends on unknown ${dep}`).toContain(dep);
      expect(cond?.condition, `${name} -> ${dep}`).toBe(
        dep === SECRETS ? 'service_completed_successfully' : 'service_healthy',
      );
    }
  });

  it('gives the gateway and every service one generated identity proof secret, the host env first', () => {
    expect(services[SECRETS]!.command).toEqual(['node', '/init/secrets.mjs']);
    expect(services[SECRETS]!.volumes).toContain('./deploy/compose:/init:ro');
    expect(services[SECRETS]!.volumes).toContain('proofsecret:/secrets');
    for (const name of Object.keys(APPS)) {
      const e = env(services[name]!);
      // no default: the host's value when set, else the generated file
      expect(e.IDENTITY_PROOF_SECRET, name).toBe('${IDENTITY_PROOF_SECRET:-}');
      expect(e.IDENTITY_PROOF_SECRET_FILE, name).toBe('/secrets/identity-proof.secret');
      expect(services[name]!.volumes, name).toContain('proofsecret:/secrets:ro');
      expect(
        (services[name]!.depends_on as Record<string, { condition?: string }>)[SECRETS],
        `${name} starts after the secrets are made`,
      ).toEqual({ condition: 'service_completed_successfully' });
    }
  });

  it('gives the session private key to auth alone, and the gateway a key dir with the public key only', () => {
    const mounting = (volume: string) =>
      names.filter((n) => (services[n]!.volumes ?? []).some((v) => v.startsWith(`${volume}:`)));
    expect(mounting('sessionkeys').sort()).toEqual(['auth', SECRETS]);
    expect(mounting('sessionpublickey').sort()).toEqual(['gateway', SECRETS]);
    expect(services.gateway!.volumes).toContain('sessionpublickey:/keys:ro');
    expect(env(services.gateway!).SESSION_KEY_DIR).toBe('/keys');
    expect(env(services.auth!).SESSION_KEY_DIR).toBe('/keys');
    expect(services.auth!.volumes).toContain('sessionkeys:/keys');
    expect(services[SECRETS]!.volumes).toEqual(
      expect.arrayContaining(['sessionkeys:/keys/private', 'sessionpublickey:/keys/public']),
    );
  });

  it('holds no secrets beyond the obvious local defaults of the infra', () => {
    const allowed = new Set(['wayfarer', 'wayfarer-secret']);
    for (const [name, s] of Object.entries(services)) {
      for (const [key, value] of Object.entries(env(s))) {
        if (key === 'IDENTITY_PROOF_SECRET' || key === 'IDENTITY_PROOF_SECRET_FILE') continue;
        if (/PASSWORD|SECRET|TOKEN|PRIVATE|API_KEY|ACCESS_KEY/.test(key)) {
          expect(allowed.has(value), `${name}.${key} should be a local default`).toBe(true);
        }
        const cred = /^[a-z]+:\/\/([^:@/]+):([^@/]+)@/.exec(value);
        if (cred) expect([cred[1], cred[2]], `${name}.${key}`).toEqual(['wayfarer', 'wayfarer']);
      }
    }
    expect(read('docker-compose.yml')).not.toMatch(/BEGIN [A-Z ]*PRIVATE KEY/);
    expect(read('docker-compose.yml')).not.toMatch(/change-me/);
  });

  it('starts every app service again when it crashes (as the local stack runner does)', () => {
    for (const name of Object.keys(APPS)) {
      expect(services[name]?.restart, name).toMatch(/^(unless-stopped|on-failure|always)$/);
    }
  });

  it('publishes infra only on loopback', () => {
    for (const name of Object.keys(INFRA)) {
      for (const port of services[name]!.ports ?? []) expect(port).toMatch(/^127\.0\.0\.1:/);
    }
  });
});

describe('Dockerfile and .dockerignore', () => {
  const dockerfile = read('Dockerfile');

  it('builds any app on a pinned Node base (a build arg) and runs its compiled JavaScript with node', () => {
    // the base of every stage is NODE_IMAGE, pinned to a full Node version by default
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:24\.\d+\.\d+-[a-z]+-slim$/m);
    const froms = dockerfile.match(/^FROM .*$/gm) ?? [];
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const from of froms) expect(from).toMatch(/^FROM \$\{NODE_IMAGE\}( AS \w+)?$/);
    expect(dockerfile).toMatch(/^ARG WORKSPACE$/m);
    expect(dockerfile).toMatch(/npm ci/);
    // the compiler of the apps (bundles, pruned npm packages, the gateway's frontend)
    expect(dockerfile).toMatch(/scripts\/build\/app\.ts/);
    expect(dockerfile).toMatch(/^COPY --from=build \/out\/\$\{WORKSPACE\} \/app$/m);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n?.*healthcheck\.js/m);
    expect(dockerfile).toMatch(
      /^CMD \["node", "--enable-source-maps", "--import", "\.\/telemetry\.js", "main\.js"\]$/m,
    );
    expect(dockerfile).not.toMatch(/tsx src|CMD \["tsx"/);
  });

  it('keeps local state out of the build context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim());
    for (const entry of ['node_modules', '.data', 'dist', '.git']) {
      expect(
        ignored.some((l) => l === entry || l === `**/${entry}`),
        entry,
      ).toBe(true);
    }
  });
});
