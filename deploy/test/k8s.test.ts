import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { BodyLimits, ImportLimits, largestBodyMaxMiB } from '@wayfarer/contracts';
import { parseEnvFile } from '@wayfarer/test-kit';
import { DEFAULT_PORTS, STACK } from '../../scripts/stack/services';

// Static checks of deploy/k8s (kustomize base + overlays). Every check is a function that
// returns its problems, so the same rules run on the files as written and, when `kustomize`
// or `kubectl` is on PATH, on what each overlay renders to.

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const k8sDir = join(root, 'deploy/k8s');
const rel = (file: string) => relative(root, file);

// ------------------------------------------------------------------ types (the parts we read)
type Labels = Record<string, string>;
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name?: string; key?: string; optional?: boolean };
    configMapKeyRef?: { name?: string; key?: string };
    fieldRef?: unknown;
  };
}
interface Probe {
  httpGet?: { path?: string; port?: string | number };
}
interface Container {
  name: string;
  image?: string;
  ports?: { name?: string; containerPort: number }[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  resources?: {
    requests?: { cpu?: string | number; memory?: string };
    limits?: { cpu?: string | number; memory?: string };
  };
  securityContext?: {
    runAsNonRoot?: boolean;
    runAsUser?: number;
    readOnlyRootFilesystem?: boolean;
    allowPrivilegeEscalation?: boolean;
  };
  volumeMounts?: { name: string; mountPath: string }[];
}
interface PodSpec {
  containers: Container[];
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  terminationGracePeriodSeconds?: number;
  volumes?: { name: string; emptyDir?: object }[];
}
interface K8sObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; labels?: Labels; annotations?: Record<string, string> };
  // Deployment, Service, Ingress, PDB, NetworkPolicy, HPA, ConfigMap: only what is read
  spec?: {
    replicas?: number;
    selector?: Labels | { matchLabels?: Labels };
    template?: { metadata?: { labels?: Labels }; spec?: PodSpec };
    ports?: { name?: string; port: number; targetPort?: string | number }[];
    rules?: {
      host?: string;
      http?: { paths?: { path?: string; backend?: { service?: { name?: string } } }[] };
    }[];
    tls?: { hosts?: string[] }[];
    podSelector?: {
      matchLabels?: Labels;
      matchExpressions?: { key: string; operator: string; values?: string[] }[];
    };
    ingress?: { from?: { podSelector?: { matchLabels?: Labels } }[] }[];
    scaleTargetRef?: { kind?: string; name?: string };
  };
  data?: Record<string, string>;
}
interface Kustomization {
  resources?: string[];
  components?: string[];
  patches?: { path?: string; patch?: string; target?: { kind?: string; name?: string } }[];
  patchesStrategicMerge?: string[];
  patchesJson6902?: { path?: string }[];
  configMapGenerator?: {
    name: string;
    behavior?: string;
    literals?: string[];
    envs?: string[];
    files?: string[];
  }[];
  secretGenerator?: unknown[];
}

// ------------------------------------------------------------------ reading the files
function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(entry) ? [path] : [];
  });
}

function parseDocs(text: string, where: string): unknown[] {
  return parseAllDocuments(text).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`${where}: ${doc.errors[0]!.message}`);
    return doc.toJS() as unknown;
  });
}

const files = yamlFiles(k8sDir);
const parsed = new Map(
  files.map((file) => [file, parseDocs(readFileSync(file, 'utf8'), rel(file))]),
);
const kustomizationFiles = files.filter((f) => /(^|\/)kustomization\.ya?ml$/.test(f));
const kustomizations = new Map(
  kustomizationFiles.map((f) => [f, (parsed.get(f)![0] ?? {}) as Kustomization]),
);

/** Files that kustomizations use as patches: partial objects, not resources. */
const patchFiles = new Set(
  [...kustomizations].flatMap(([file, k]) =>
    [
      ...(k.patches ?? []).map((p) => p.path),
      ...(k.patchesStrategicMerge ?? []),
      ...(k.patchesJson6902 ?? []).map((p) => p.path),
    ]
      .filter((p): p is string => typeof p === 'string')
      .map((p) => join(dirname(file), p)),
  ),
);

const isObject = (v: unknown): v is K8sObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && 'kind' in v;

const baseKustomizationFile = join(k8sDir, 'base/kustomization.yaml');
const baseKustomization = kustomizations.get(baseKustomizationFile) ?? {};
/** The base's resources: the files it lists, parsed. */
const baseObjects: K8sObject[] = (baseKustomization.resources ?? []).flatMap((r) => {
  const file = join(k8sDir, 'base', r);
  return existsSync(file) && statSync(file).isFile()
    ? (parsed.get(file) ?? []).filter(isObject)
    : [];
});

/** ConfigMaps by name: plain ConfigMap objects and configMapGenerator literals. */
function configMapsOf(
  objects: K8sObject[],
  k?: Kustomization,
): Map<string, Record<string, string>> {
  const maps = new Map<string, Record<string, string>>();
  for (const o of objects) {
    if (o.kind === 'ConfigMap' && o.metadata?.name) maps.set(o.metadata.name, { ...o.data });
  }
  for (const g of k?.configMapGenerator ?? []) {
    const data = { ...maps.get(g.name) };
    for (const literal of g.literals ?? []) {
      const eq = literal.indexOf('=');
      data[literal.slice(0, eq)] = literal.slice(eq + 1);
    }
    maps.set(g.name, data);
  }
  return maps;
}

// ------------------------------------------------------------------ the rules
const SECRET_NAME = /KEY|PASSWORD|SECRET|TOKEN|CREDENTIAL|^DATABASE_URL$|^MONGO_URL$|^REDIS_URL$/;
const CREDENTIAL_IN_URL = /^[a-z][a-z0-9+.-]*:\/\/[^/@\s]*:[^/@\s]+@/i;
const PEM = /-----BEGIN [A-Z ]*KEY-----/;

// One Deployment per workspace: a workspace the local stack runs as several processes (chat,
// chat2) is one Deployment with replicas, named after its first process.
const apps = STACK.filter((s, i) => STACK.findIndex((t) => t.dir === s.dir) === i).map(
  (s) => s.name,
);
/** Seconds of an ingress-nginx timeout annotation (`proxy-read-timeout`, ...). */
const nginxSeconds = (ing: K8sObject, key: string) =>
  Number(ing.metadata?.annotations?.[`nginx.ingress.kubernetes.io/${key}`] ?? 60);

const ports = DEFAULT_PORTS as unknown as Record<string, number>;
const appOf = (o: K8sObject) => o.metadata?.name ?? '?';
const byKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
const podLabels = (d: K8sObject): Labels => d.spec?.template?.metadata?.labels ?? {};
const selects = (selector: Labels | undefined, labels: Labels) =>
  !!selector &&
  Object.keys(selector).length > 0 &&
  Object.entries(selector).every(([k, v]) => labels[k] === v);
const envOf = (d: K8sObject) => d.spec?.template?.spec?.containers?.[0]?.env ?? [];

function portMatches(port: string | number | undefined, c: Container): boolean {
  return (c.ports ?? []).some(
    (p) => port === p.containerPort || (port !== undefined && port === p.name),
  );
}

/** Everything a Deployment must have; returns what is wrong, with the Deployment's name. */
function deploymentProblems(
  d: K8sObject,
  objects: K8sObject[],
  configMaps: Map<string, Record<string, string>>,
): string[] {
  const name = appOf(d);
  const problems: string[] = [];
  const bad = (what: string) => problems.push(`${name}: ${what}`);
  const pod = d.spec?.template?.spec;
  const c = pod?.containers?.[0];
  if (!pod || !c) return [`${name}: no pod template with a container`];

  const matchLabels = (d.spec?.selector as { matchLabels?: Labels } | undefined)?.matchLabels;
  if (!selects(matchLabels, podLabels(d))) bad('spec.selector does not select its own pod labels');
  if (!c.image || !new RegExp(`(^|/)wayfarer/${name}[:@]`).test(c.image)) {
    bad(`image ${c.image} is not wayfarer/${name} (built from the root Dockerfile)`);
  }
  const port = c.ports?.[0]?.containerPort;
  if (!port) bad('no containerPort');

  // probes
  for (const [probe, path] of [
    ['readinessProbe', '/readyz'],
    ['livenessProbe', '/healthz'],
  ] as const) {
    const get = c[probe]?.httpGet;
    if (get?.path !== path) bad(`${probe} must GET ${path} (has ${get?.path})`);
    else if (!portMatches(get.port, c)) bad(`${probe} port ${get.port} is not a container port`);
  }

  // resources
  const r = c.resources;
  for (const key of ['requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']) {
    const [group, res] = key.split('.') as ['requests' | 'limits', 'cpu' | 'memory'];
    if (r?.[group]?.[res] === undefined) bad(`no resources.${key}`);
  }

  // security
  const nonRoot = c.securityContext?.runAsNonRoot ?? pod.securityContext?.runAsNonRoot;
  if (nonRoot !== true) bad('runAsNonRoot is not true');
  // the image's USER is `node` (not a number): the kubelet can only enforce runAsNonRoot
  // with a numeric runAsUser
  const uid = c.securityContext?.runAsUser ?? pod.securityContext?.runAsUser;
  if (typeof uid !== 'number' || uid === 0) bad('runAsUser must be a non-zero number');
  if (c.securityContext?.allowPrivilegeEscalation !== false) bad('allowPrivilegeEscalation');
  if (c.securityContext?.readOnlyRootFilesystem === true) {
    const tmp = (c.volumeMounts ?? []).find((m) => m.mountPath === '/tmp');
    const vol = pod.volumes?.find((v) => v.name === tmp?.name);
    if (!vol?.emptyDir) bad('read-only root filesystem without an emptyDir at /tmp (tsx, uploads)');
  }
  if ((pod.terminationGracePeriodSeconds ?? 30) < 15) bad('terminationGracePeriodSeconds < 15');

  // env
  const env = new Map((c.env ?? []).map((e) => [e.name, e]));
  if (env.get('HOST')?.value !== '0.0.0.0') bad('HOST must be 0.0.0.0');
  if (port && env.get('PORT')?.value !== String(port)) bad(`PORT must be ${port}`);
  for (const e of c.env ?? []) {
    if (SECRET_NAME.test(e.name)) {
      const ref = e.valueFrom?.secretKeyRef;
      if (e.value !== undefined || !ref?.name || !ref.key) {
        bad(`${e.name} must come from valueFrom.secretKeyRef, not a literal or a ConfigMap`);
      }
    }
    if (e.value !== undefined && (CREDENTIAL_IN_URL.test(e.value) || PEM.test(e.value))) {
      bad(`${e.name} holds a credential literally`);
    }
    const cm = e.valueFrom?.configMapKeyRef;
    if (cm && configMaps.get(cm.name ?? '')?.[cm.key ?? ''] === undefined) {
      bad(`${e.name} refers to ${cm.name}.${cm.key}, which does not exist`);
    }
  }
  for (const from of c.envFrom ?? []) {
    if (from.configMapRef && !configMaps.has(from.configMapRef.name)) {
      bad(`envFrom ConfigMap ${from.configMapRef.name} does not exist`);
    }
  }
  if (env.has('SESSION_KEY_DIR')) bad('SESSION_KEY_DIR: no shared key dir in Kubernetes');

  // its Service
  const services = byKind(objects, 'Service').filter((s) =>
    selects(s.spec?.selector as Labels | undefined, podLabels(d)),
  );
  if (services.length === 0) bad('no Service selects its pods');
  for (const s of services) {
    for (const p of s.spec?.ports ?? []) {
      if (!portMatches(p.targetPort ?? p.port, c)) {
        bad(`Service ${appOf(s)} targets port ${p.targetPort ?? p.port}, not a container port`);
      }
    }
  }
  return problems;
}

const isApp = (d: K8sObject) => apps.includes(appOf(d));
/** The Deployments of the apps (not, e.g., the tracing component's jaeger). */
const appDeployments = (objects: K8sObject[]) => byKind(objects, 'Deployment').filter(isApp);
const containerPort = (d: K8sObject, name: string) =>
  d.spec?.template?.spec?.containers?.[0]?.ports?.find((p) => p.name === name)?.containerPort;

/**
 * Where Prometheus scrapes each app (deploy/prometheus/README.md): the pod annotations name
 * `/metrics` on the service's own port, or on the gateway's `metrics` port, which its env
 * names and no Service exposes (the Ingress reaches only Services).
 */
function metricsProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const d of appDeployments(objects)) {
    const name = appOf(d);
    const annotations =
      (d.spec?.template?.metadata as { annotations?: Record<string, string> } | undefined)
        ?.annotations ?? {};
    const port = name === 'gateway' ? containerPort(d, 'metrics') : containerPort(d, 'http');
    if (port === undefined) problems.push(`${name}: no metrics port`);
    const want = {
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': String(port),
      'prometheus.io/path': '/metrics',
    };
    for (const [k, v] of Object.entries(want)) {
      if (annotations[k] !== v)
        problems.push(`${name}: pod annotation ${k}=${annotations[k]}, want ${v}`);
    }
    if (name !== 'gateway') continue;
    const env = new Map(envOf(d).map((e) => [e.name, e.value]));
    if (port === containerPort(d, 'http')) problems.push('gateway: metrics on its public port');
    if (env.get('METRICS_PORT') !== String(port))
      problems.push(`gateway: METRICS_PORT is not ${port}`);
    if (env.get('METRICS_HOST') !== '0.0.0.0')
      problems.push('gateway: METRICS_HOST must be 0.0.0.0');
    for (const svc of byKind(objects, 'Service')) {
      if (!selects(svc.spec?.selector as Labels, podLabels(d))) continue;
      for (const p of svc.spec?.ports ?? []) {
        if (p.targetPort === 'metrics' || p.targetPort === port || p.port === port) {
          problems.push(`Service ${appOf(svc)} exposes the gateway's metrics port`);
        }
      }
    }
  }
  return problems;
}

// ------------------------------------------------------------------ network policies
interface Selector {
  matchLabels?: Labels;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}
interface PolicyPeer {
  podSelector?: Selector;
  namespaceSelector?: Selector;
}
interface PolicyRule {
  from?: PolicyPeer[];
  to?: PolicyPeer[];
  ports?: { port?: string | number; protocol?: string }[];
}
interface PolicySpec {
  podSelector?: Selector;
  policyTypes?: string[];
  ingress?: PolicyRule[];
  egress?: PolicyRule[];
}

function matches(sel: Selector | undefined, labels: Labels): boolean {
  if (!sel) return false;
  const exprs = (sel.matchExpressions ?? []).every((e) => {
    const v = labels[e.key];
    if (e.operator === 'In') return v !== undefined && (e.values ?? []).includes(v);
    if (e.operator === 'NotIn') return v === undefined || !(e.values ?? []).includes(v);
    if (e.operator === 'Exists') return v !== undefined;
    return v === undefined; // DoesNotExist
  });
  return exprs && Object.entries(sel.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
}
const isEmpty = (sel: Selector | undefined) =>
  !!sel && !sel.matchExpressions?.length && !Object.keys(sel.matchLabels ?? {}).length;

/**
 * What the NetworkPolicies let a pod receive (`ingress`) or send (`egress`), as lines
 * `<peer> -> <port>/<protocol>`: peer `app:<Deployment>` (a pod selector, resolved), `ns:<name>`,
 * `ns:<name>/pods:<labels>`, or `any`; named ports resolved on the receiving pod. `null` when
 * no policy restricts that direction (nothing denied).
 */
function flows(
  objects: K8sObject[],
  pod: K8sObject,
  direction: 'ingress' | 'egress',
): Set<string> | null {
  const type = direction === 'ingress' ? 'Ingress' : 'Egress';
  const deployments = byKind(objects, 'Deployment');
  const policies = byKind(objects, 'NetworkPolicy')
    .map((p) => p.spec as PolicySpec)
    .filter((p) => matches(p.podSelector, podLabels(pod)))
    .filter((p) => (p.policyTypes ?? ['Ingress', ...(p.egress ? ['Egress'] : [])]).includes(type));
  if (policies.length === 0) return null;
  const out = new Set<string>();
  for (const rule of policies.flatMap((p) => p[direction] ?? [])) {
    const peers = (direction === 'ingress' ? rule.from : rule.to) ?? [undefined];
    for (const peer of peers) {
      const ns = peer?.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'];
      const targets: { name: string; pod?: K8sObject }[] = !peer
        ? [{ name: 'any' }]
        : peer.namespaceSelector
          ? [
              {
                name: `ns:${ns ?? JSON.stringify(peer.namespaceSelector)}${peer.podSelector ? `/pods:${JSON.stringify(peer.podSelector.matchLabels ?? peer.podSelector)}` : ''}`,
              },
            ]
          : deployments
              .filter((d) => matches(peer.podSelector, podLabels(d)))
              .map((d) => ({ name: `app:${appOf(d)}`, pod: d }));
      for (const t of targets) {
        // a named port is the receiving pod's: this pod for ingress, the peer for egress
        const receiver = direction === 'ingress' ? pod : t.pod;
        for (const p of rule.ports ?? [{}]) {
          const port =
            typeof p.port === 'string' && receiver
              ? (containerPort(receiver, p.port) ?? p.port)
              : p.port;
          out.add(`${t.name} -> ${port ?? 'all'}/${p.protocol ?? 'TCP'}`);
        }
      }
    }
  }
  return out;
}

/** The port of a URL or of the first `host:port` of a list (a ConfigMap address). */
function portOf(address: string | undefined, fallback: number): number {
  const m = /^(?:[a-z]+:\/\/)?[^/:,]+:(\d+)/.exec(address ?? '');
  return m ? Number(m[1]) : fallback;
}

/**
 * Default deny, then exactly the paths of the architecture: the Ingress controller to the
 * gateway, the gateway to the services, Prometheus to the metrics ports; out, DNS and OTLP for
 * every app, the services' stores by port (from the env each one gets), the gateway to the
 * services and Redis.
 */
function networkProblems(
  objects: K8sObject[],
  configMaps: Map<string, Record<string, string>>,
): string[] {
  const problems: string[] = [];
  const policies = byKind(objects, 'NetworkPolicy').map((p) => p.spec as PolicySpec);
  const denyAll = policies.some(
    (p) =>
      isEmpty(p.podSelector) &&
      ['Ingress', 'Egress'].every((t) => p.policyTypes?.includes(t)) &&
      !p.ingress?.length &&
      !p.egress?.length,
  );
  if (!denyAll)
    problems.push('no default-deny NetworkPolicy (empty podSelector, Ingress and Egress)');
  const config = (key: string) =>
    [...configMaps.entries()].find(([name]) => name.startsWith('wayfarer-config'))?.[1][key];
  const deployments = appDeployments(objects);
  for (const d of deployments) {
    const name = appOf(d);
    const http = containerPort(d, 'http');
    const metrics = name === 'gateway' ? containerPort(d, 'metrics') : http;
    const env = new Set(envOf(d).map((e) => e.name));
    // a service given another's address calls it (trips asks the account export's areas of
    // their owners, issue 22): out from the caller, in to the callee, on its http port
    const others = deployments.filter((o) => appOf(o) !== 'gateway' && o !== d);
    const urlKey = (o: K8sObject) => `${appOf(o).toUpperCase()}_URL`;
    const callers =
      name === 'gateway'
        ? []
        : others.filter((o) => envOf(o).some((e) => e.name === urlKey(d))).map(appOf);
    const callees = name === 'gateway' ? [] : others.filter((o) => env.has(urlKey(o)));
    const wantIn =
      name === 'gateway'
        ? [`ns:ingress-nginx -> ${http}/TCP`, `ns:monitoring -> ${metrics}/TCP`]
        : [
            `app:gateway -> ${http}/TCP`,
            `ns:monitoring -> ${metrics}/TCP`,
            ...callers.map((c) => `app:${c} -> ${http}/TCP`),
          ];
    const stores: [string, number][] = [
      ['DATABASE_URL', 5432],
      ['REDIS_URL', 6379],
      ['MONGO_URL', 27017],
      ['KAFKA_BROKERS', portOf(config('KAFKA_BROKERS'), 9092)],
      ['S3_ENDPOINT', portOf(config('S3_ENDPOINT'), 443)],
    ];
    const wantOut = [
      'ns:kube-system/pods:{"k8s-app":"kube-dns"} -> 53/UDP',
      'ns:kube-system/pods:{"k8s-app":"kube-dns"} -> 53/TCP',
      'any -> 4317/TCP',
      'any -> 4318/TCP',
      ...stores.filter(([key]) => env.has(key)).map(([, port]) => `any -> ${port}/TCP`),
      ...callees.map((o) => `app:${appOf(o)} -> ${containerPort(o, 'http')}/TCP`),
      ...(name === 'gateway'
        ? deployments
            .filter((s) => appOf(s) !== 'gateway')
            .map((s) => `app:${appOf(s)} -> ${containerPort(s, 'http')}/TCP`)
        : []),
    ];
    for (const [direction, want] of [
      ['ingress', wantIn],
      ['egress', wantOut],
    ] as const) {
      const got = flows(objects, d, direction);
      if (!got) {
        problems.push(`${name}: no NetworkPolicy restricts its ${direction}`);
        continue;
      }
      const missing = want.filter((f) => !got.has(f));
      const extra = [...got].filter((f) => !want.includes(f));
      if (missing.length) problems.push(`${name} ${direction}: missing ${missing.join(', ')}`);
      if (extra.length) problems.push(`${name} ${direction}: not needed ${extra.join(', ')}`);
    }
  }
  return problems;
}

/** The rules across Deployments: session keys, upstream URLs, ingress, PDB, network policy, metrics. */
function stackProblems(
  objects: K8sObject[],
  configMaps: Map<string, Record<string, string>>,
): string[] {
  const problems: string[] = [];
  const deployments = new Map(appDeployments(objects).map((d) => [appOf(d), d]));
  const services = byKind(objects, 'Service');
  const envValue = (e: EnvVar | undefined) => {
    const cm = e?.valueFrom?.configMapKeyRef;
    return cm ? configMaps.get(cm.name ?? '')?.[cm.key ?? ''] : e?.value;
  };

  for (const app of apps) {
    const d = deployments.get(app);
    if (!d) {
      problems.push(`${app} (scripts/stack/services.ts STACK) has no Deployment`);
      continue;
    }
    const port = d.spec?.template?.spec?.containers?.[0]?.ports?.[0]?.containerPort;
    if (port !== ports[app])
      problems.push(`${app}: listens on ${port}, the stack says ${ports[app]}`);
  }

  // session keys: the private key only in auth, the public key only in the gateway
  for (const [name, d] of deployments) {
    const env = new Map(envOf(d).map((e) => [e.name, e]));
    const wantPrivate = name === 'auth';
    const wantPublic = name === 'gateway';
    for (const [key, want] of [
      ['SESSION_PRIVATE_KEY', wantPrivate],
      ['SESSION_PUBLIC_KEY', wantPublic],
    ] as const) {
      const has = !!env.get(key)?.valueFrom?.secretKeyRef;
      if (has !== want) problems.push(`${name}: ${want ? 'needs' : 'must not get'} ${key}`);
    }
  }

  // the identity proof: one secret shared by the gateway (signs) and every service (checks),
  // from a Secret; without it a service refuses every request (NODE_ENV=production)
  const proofSecrets = new Set<string>();
  for (const [name, d] of deployments) {
    const ref = envOf(d).find((e) => e.name === 'IDENTITY_PROOF_SECRET')?.valueFrom?.secretKeyRef;
    if (!ref?.name || !ref.key || ref.optional) {
      problems.push(`${name}: needs IDENTITY_PROOF_SECRET from a Secret (required)`);
    } else {
      proofSecrets.add(`${ref.name}.${ref.key}`);
    }
  }
  if (proofSecrets.size > 1) {
    problems.push(
      `IDENTITY_PROOF_SECRET comes from different Secrets: ${[...proofSecrets].join(', ')}`,
    );
  }

  // the gateway's upstreams are the Services
  const gateway = deployments.get('gateway');
  if (gateway) {
    const env = new Map(envOf(gateway).map((e) => [e.name, e]));
    // the image builds the frontend there (root Dockerfile); unset, the gateway serves only /api
    if (envValue(env.get('FRONTEND_DIST')) !== '/app/frontend/dist') {
      problems.push('gateway: FRONTEND_DIST must be /app/frontend/dist');
    }
    for (const app of apps.filter((a) => a !== 'gateway')) {
      const key = `${app.toUpperCase()}_URL`;
      const url = envValue(env.get(key));
      const m = /^http:\/\/([a-z0-9-]+):(\d+)$/.exec(url ?? '');
      const svc = services.find((s) => appOf(s) === m?.[1]);
      if (!m || !svc || !svc.spec?.ports?.some((p) => p.port === Number(m[2]))) {
        problems.push(`gateway: ${key}=${url} is not http://<Service>:<its port>`);
      } else if (!selects(svc.spec.selector as Labels, podLabels(deployments.get(app) ?? {}))) {
        problems.push(`gateway: ${key} points at Service ${m[1]}, which does not select ${app}`);
      }
    }
    const gatewayServices = services
      .filter((s) => selects(s.spec?.selector as Labels, podLabels(gateway)))
      .map(appOf);
    const ingresses = byKind(objects, 'Ingress');
    if (ingresses.length === 0) problems.push('no Ingress');
    for (const ing of ingresses) {
      for (const rule of ing.spec?.rules ?? []) {
        for (const path of rule.http?.paths ?? []) {
          const to = path.backend?.service?.name ?? '';
          if (!gatewayServices.includes(to))
            problems.push(`Ingress routes to ${to}, not the gateway`);
        }
      }
      // the controller lets through the largest body the gateway accepts (contracts' caps)
      const paths = (ing.spec?.rules ?? []).flatMap((r) => r.http?.paths ?? []);
      if (!paths.some((p) => p.path === '/')) continue;
      const bodySize = ing.metadata?.annotations?.['nginx.ingress.kubernetes.io/proxy-body-size'];
      if (bodySize !== `${largestBodyMaxMiB}m`) {
        problems.push(
          `Ingress ${appOf(ing)}: proxy-body-size ${bodySize}, not ${largestBodyMaxMiB}m (contracts' largestBodyMaxMiB)`,
        );
      }
    }
    // chat's socket: /socket.io routed to the gateway on the site's own hosts, with timeouts a
    // long-lived websocket outlives (its heartbeat keeps it busy; dead peers are found by it)
    const hostsOf = (ing: K8sObject) => (ing.spec?.rules ?? []).map((r) => r.host).sort();
    const site = ingresses.find((ing) =>
      (ing.spec?.rules ?? []).some((r) => r.http?.paths?.some((p) => p.path === '/')),
    );
    const socket = ingresses.find((ing) =>
      (ing.spec?.rules ?? []).some((r) => r.http?.paths?.some((p) => p.path === '/socket.io')),
    );
    if (!socket) problems.push('no Ingress routes /socket.io (chat) to the gateway');
    else {
      for (const key of ['proxy-read-timeout', 'proxy-send-timeout']) {
        if (!(nginxSeconds(socket, key) >= 3600)) {
          problems.push(`Ingress ${appOf(socket)}: ${key} under an hour (a socket is long-lived)`);
        }
      }
      if (site && JSON.stringify(hostsOf(site)) !== JSON.stringify(hostsOf(socket))) {
        problems.push(`Ingress ${appOf(socket)}: hosts differ from ${appOf(site)}'s (same origin)`);
      }
    }
    // share pages' absolute URLs are built on PUBLIC_URL (never a request's Host): the site's
    // own origin, its Ingress's host, https where the Ingress terminates TLS
    if (site) {
      const scheme = (site.spec?.tls ?? []).length > 0 ? 'https' : 'http';
      const origins = hostsOf(site).map((host) => `${scheme}://${host}`);
      const publicUrl = envValue(env.get('PUBLIC_URL'));
      if (publicUrl === undefined || !origins.includes(publicUrl)) {
        problems.push(`gateway: PUBLIC_URL=${publicUrl} is not the site's origin (${origins})`);
      }
    }
    // issue 22: the import, routed with a read timeout past the gateway's own wait for it
    const importIngress = ingresses.find((ing) =>
      (ing.spec?.rules ?? []).some((r) => r.http?.paths?.some((p) => p.path === '/api/import')),
    );
    if (!importIngress) problems.push('no Ingress routes /api/import (the import) to the gateway');
    else {
      for (const key of ['proxy-read-timeout', 'proxy-send-timeout']) {
        if (!(nginxSeconds(importIngress, key) > ImportLimits.answerTimeoutMs / 1000)) {
          problems.push(
            `Ingress ${appOf(importIngress)}: ${key} not past the import's answer time`,
          );
        }
      }
      const bodySize =
        importIngress.metadata?.annotations?.['nginx.ingress.kubernetes.io/proxy-body-size'];
      if (bodySize !== `${Math.ceil(BodyLimits.import / (1024 * 1024))}m`) {
        problems.push(
          `Ingress ${appOf(importIngress)}: proxy-body-size ${bodySize}, not the import's`,
        );
      }
      if (site && JSON.stringify(hostsOf(site)) !== JSON.stringify(hostsOf(importIngress))) {
        problems.push(`Ingress ${appOf(importIngress)}: hosts differ from ${appOf(site)}'s`);
      }
    }
  }

  // a PodDisruptionBudget for every app (each runs 2 or more replicas outside dev)
  for (const [name, d] of deployments) {
    const pdbs = byKind(objects, 'PodDisruptionBudget').filter((p) =>
      selects((p.spec?.selector as { matchLabels?: Labels })?.matchLabels, podLabels(d)),
    );
    if (pdbs.length !== 1) problems.push(`${name}: ${pdbs.length} PodDisruptionBudgets (want 1)`);
  }

  problems.push(...metricsProblems(objects), ...networkProblems(objects, configMaps));
  return problems;
}

/** No credential in a ConfigMap, no Secret object, no secretGenerator, no PEM anywhere. */
function secretProblems(objects: K8sObject[], configMaps: Map<string, Record<string, string>>) {
  const problems: string[] = [];
  for (const o of objects) {
    if (o.kind === 'Secret') problems.push(`Secret ${appOf(o)} is committed: create it in-cluster`);
  }
  for (const [name, data] of configMaps) {
    for (const [key, value] of Object.entries(data)) {
      if (SECRET_NAME.test(key)) problems.push(`ConfigMap ${name} holds ${key}: use a Secret`);
      if (CREDENTIAL_IN_URL.test(value) || PEM.test(value)) {
        problems.push(`ConfigMap ${name}.${key} holds a credential`);
      }
    }
  }
  return problems;
}

// ------------------------------------------------------------------ the files as written
describe('deploy/k8s files', () => {
  it('parse, and hold no committed secret', () => {
    expect(files.length).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const file of files) {
      if (PEM.test(readFileSync(file, 'utf8'))) problems.push(`${rel(file)} holds a PEM key`);
      for (const doc of parsed.get(file)!) {
        if (isObject(doc) && doc.kind === 'Secret') problems.push(`${rel(file)} is a Secret`);
      }
    }
    for (const [file, k] of kustomizations) {
      if (k.secretGenerator) problems.push(`${rel(file)}: secretGenerator (never commit secrets)`);
    }
    expect(problems).toEqual([]);
  });

  it('has the base and the dev and prod overlays', () => {
    expect(kustomizationFiles.map(rel).sort()).toEqual(
      [
        'deploy/k8s/base/kustomization.yaml',
        'deploy/k8s/components/tracing/kustomization.yaml',
        'deploy/k8s/overlays/dev/kustomization.yaml',
        'deploy/k8s/overlays/prod/kustomization.yaml',
      ].sort(),
    );
  });

  it.each(kustomizationFiles.map(rel))('%s: every resource and patch file exists', (file) => {
    const k = kustomizations.get(join(root, file))!;
    const dir = dirname(join(root, file));
    const missing: string[] = [];
    for (const r of [...(k.resources ?? []), ...(k.components ?? [])]) {
      const path = join(dir, r);
      const ok = existsSync(path)
        ? statSync(path).isFile() || existsSync(join(path, 'kustomization.yaml'))
        : false;
      if (!ok) missing.push(`resource ${r}`);
    }
    for (const p of [
      ...(k.patches ?? []).map((x) => x.path),
      ...(k.patchesStrategicMerge ?? []),
      ...(k.patchesJson6902 ?? []).map((x) => x.path),
      ...(k.configMapGenerator ?? []).flatMap((g) => [...(g.envs ?? []), ...(g.files ?? [])]),
    ]) {
      if (p !== undefined && !existsSync(join(dir, p.replace(/^[^=]+=/, '')))) {
        missing.push(`patch/file ${p}`);
      }
    }
    for (const p of k.patches ?? []) {
      if (!p.path && !p.patch) missing.push('a patch with neither path nor patch');
    }
    expect(missing).toEqual([]);
  });

  it('uses every YAML file under deploy/k8s (no stray manifest)', () => {
    const used = new Set([...kustomizationFiles, ...patchFiles]);
    for (const [file, k] of kustomizations) {
      for (const r of k.resources ?? []) used.add(join(dirname(file), r));
      for (const g of k.configMapGenerator ?? []) {
        for (const f of g.files ?? []) used.add(join(dirname(file), f.replace(/^[^=]+=/, '')));
      }
    }
    expect(files.filter((f) => !used.has(f)).map(rel)).toEqual([]);
  });

  it('patches only objects the base defines (patch files with kind and name)', () => {
    const known = new Set(baseObjects.map((o) => `${o.kind}/${appOf(o)}`));
    const problems: string[] = [];
    for (const [file, k] of kustomizations) {
      for (const p of k.patches ?? []) {
        if (p.target?.name && p.target.kind) {
          if (!known.has(`${p.target.kind}/${p.target.name}`)) {
            problems.push(`${rel(file)}: target ${p.target.kind}/${p.target.name} is unknown`);
          }
        }
        if (!p.path) continue;
        const docs = parsed.get(join(dirname(file), p.path)) ?? [];
        for (const doc of docs) {
          if (Array.isArray(doc)) {
            // JSON 6902: needs a target
            if (!p.target?.kind)
              problems.push(`${rel(file)}: ${p.path} is JSON 6902 without target`);
          } else if (isObject(doc) && !known.has(`${doc.kind}/${appOf(doc)}`)) {
            problems.push(`${p.path}: ${doc.kind}/${appOf(doc)} is not in the base`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });

  describe('base', () => {
    const configMaps = configMapsOf(baseObjects, baseKustomization);
    const deployments = byKind(baseObjects, 'Deployment');

    it('has the Namespace wayfarer and puts everything in it', () => {
      expect(byKind(baseObjects, 'Namespace').map(appOf)).toEqual(['wayfarer']);
      expect((baseKustomization as { namespace?: string }).namespace).toBe('wayfarer');
    });

    it('has a Deployment for every app of scripts/stack/services.ts STACK', () => {
      expect(apps.length).toBeGreaterThan(0);
      expect(deployments.map(appOf).sort()).toEqual([...apps].sort());
    });

    it.each(deployments.map((d) => [appOf(d), d] as const))(
      '%s: probes, resources, security, env from ConfigMap and Secrets, a Service',
      (_name, d) => {
        expect(deploymentProblems(d, baseObjects, configMaps)).toEqual([]);
      },
    );

    it.each(deployments.map((d) => [appOf(d), d] as const))(
      '%s runs at least 2 replicas (safe to scale)',
      (_name, d) => {
        expect(d.spec?.replicas).toBeGreaterThanOrEqual(2);
      },
    );

    it('keys: gateway public only, auth private only, one identity proof secret for all; upstreams, Ingress, PDB, NetworkPolicy', () => {
      expect(stackProblems(baseObjects, configMaps)).toEqual([]);
    });

    it('keeps credentials out of the ConfigMap and asks for COOKIE_SECURE=true', () => {
      expect(secretProblems(baseObjects, configMaps)).toEqual([]);
      expect(configMaps.get('wayfarer-config')?.COOKIE_SECURE).toBe('true');
    });

    it('documents every Secret it uses in deploy/k8s/README.md, with a kubectl command', () => {
      const readme = readFileSync(join(k8sDir, 'README.md'), 'utf8');
      const refs = new Map<string, Set<string>>();
      for (const d of deployments) {
        for (const e of envOf(d)) {
          const ref = e.valueFrom?.secretKeyRef;
          if (ref?.name) refs.set(ref.name, (refs.get(ref.name) ?? new Set()).add(ref.key ?? ''));
        }
      }
      const missing: string[] = [];
      for (const [secret, keys] of refs) {
        const command = new RegExp(`kubectl (-n \\S+ )?create secret generic ${secret}\\b`);
        if (!command.test(readme)) missing.push(secret);
        for (const key of keys) if (!readme.includes(key)) missing.push(`${secret}.${key}`);
      }
      expect(refs.size).toBeGreaterThan(0);
      expect(missing).toEqual([]);
    });
  });

  describe('overlays as written', () => {
    const literals = (overlay: string) =>
      configMapsOf(
        [],
        kustomizations.get(join(k8sDir, `overlays/${overlay}/kustomization.yaml`)),
      ).get('wayfarer-config') ?? {};

    it('dev: debug logs, no Secure cookie (plain HTTP), 1 replica for every Deployment', () => {
      expect(literals('dev')).toMatchObject({ LOG_LEVEL: 'debug', COOKIE_SECURE: 'false' });
      const k = kustomizations.get(join(k8sDir, 'overlays/dev/kustomization.yaml'))!;
      const replicaPatch = (k.patches ?? []).find(
        (p) => p.target?.kind === 'Deployment' && !p.target.name && p.path,
      );
      const ops = (parsed.get(join(k8sDir, 'overlays/dev', replicaPatch?.path ?? ''))?.[0] ??
        []) as { op: string; path: string; value?: unknown }[];
      expect(ops).toContainEqual({ op: 'replace', path: '/spec/replicas', value: 1 });
    });

    it('prod: COOKIE_SECURE stays true', () => {
      expect(literals('prod').COOKIE_SECURE ?? 'true').toBe('true');
    });
  });
});

// ------------------------------------------------------------------ what kustomize renders
/**
 * The renderer and the schema validator: deploy/test/k8s-tools.sh finds kubectl's kustomize (or
 * builds kustomize v5), builds kubeconform and generates the schemas from k8s.io/api, once
 * (scripts/test.sh runs it before the tests, so here it only answers from its cache).
 */
const tools = (() => {
  const r = spawnSync('bash', [join(root, 'deploy/test/k8s-tools.sh')], { encoding: 'utf8' });
  if (r.status !== 0) return { error: `deploy/test/k8s-tools.sh failed:\n${r.stderr}` };
  return parseEnvFile(r.stdout);
})();
function tool(key: 'KUSTOMIZE' | 'KUBECONFORM' | 'K8S_SCHEMAS'): string {
  const value = (tools as Record<string, string>)[key];
  if (!value) throw new Error((tools as { error?: string }).error ?? `k8s-tools.sh gave no ${key}`);
  return value;
}

const rendered = new Map<string, string>();
function renderText(dir: string): string {
  const [cmd, ...args] = tool('KUSTOMIZE').split(' ');
  if (!rendered.has(dir)) {
    const out = spawnSync(cmd!, [...args, join(k8sDir, dir)], { encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`${tool('KUSTOMIZE')} ${dir} failed:\n${out.stderr}`);
    rendered.set(dir, out.stdout);
  }
  return rendered.get(dir)!;
}
const render = (dir: string): K8sObject[] => parseDocs(renderText(dir), dir).filter(isObject);

/** kubeconform -strict against the generated schemas; returns its output and exit status. */
function kubeconform(yamlText: string) {
  const r = spawnSync(
    tool('KUBECONFORM'),
    [
      '-strict',
      '-summary',
      '-schema-location',
      `${tool('K8S_SCHEMAS')}/{{ .ResourceKind }}{{ .KindSuffix }}.json`,
      '-',
    ],
    { input: yamlText, encoding: 'utf8' },
  );
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('rendered with kustomize', () => {
  it.each(['base', 'overlays/dev', 'overlays/prod'])('%s passes every rule', (dir) => {
    const objects = render(dir);
    const configMaps = configMapsOf(objects);
    const problems = [
      ...appDeployments(objects).flatMap((d) => deploymentProblems(d, objects, configMaps)),
      ...stackProblems(objects, configMaps),
      ...secretProblems(objects, configMaps),
    ];
    for (const o of objects) {
      const ns = (o.metadata as { namespace?: string } | undefined)?.namespace;
      if (o.kind !== 'Namespace' && ns !== 'wayfarer')
        problems.push(`${o.kind}/${appOf(o)}: namespace ${ns}`);
    }
    expect(problems).toEqual([]);
  });

  it('dev: 1 replica each, debug, COOKIE_SECURE=false', () => {
    const objects = render('overlays/dev');
    for (const d of byKind(objects, 'Deployment')) expect(d.spec?.replicas, appOf(d)).toBe(1);
    const [config] = byKind(objects, 'ConfigMap').filter((c) =>
      appOf(c).startsWith('wayfarer-config'),
    );
    expect(config?.data).toMatchObject({ LOG_LEVEL: 'debug', COOKIE_SECURE: 'false' });
  });

  it('prod: COOKIE_SECURE=true, an HPA for every stateless app (all but chat), chat by replicas ≥ 2', () => {
    const objects = render('overlays/prod');
    const [config] = byKind(objects, 'ConfigMap').filter((c) =>
      appOf(c).startsWith('wayfarer-config'),
    );
    expect(config?.data?.COOKIE_SECURE).toBe('true');
    const hpas = byKind(objects, 'HorizontalPodAutoscaler') as (K8sObject & {
      spec: { minReplicas?: number; maxReplicas?: number };
    })[];
    const hpaTargets = hpas.map(
      (h) => `${h.spec.scaleTargetRef?.kind}/${h.spec.scaleTargetRef?.name}`,
    );
    // chat's pods hold websockets, which a scale-up does not move and a scale-down cuts
    expect(hpaTargets.sort()).toEqual(
      apps
        .filter((a) => a !== 'chat')
        .map((a) => `Deployment/${a}`)
        .sort(),
    );
    for (const h of hpas) {
      expect(h.spec.minReplicas, appOf(h)).toBeGreaterThanOrEqual(2);
      expect(h.spec.maxReplicas, appOf(h)).toBeGreaterThan(h.spec.minReplicas ?? 0);
    }
    for (const d of byKind(objects, 'Deployment')) {
      // the HPA owns the count: a `replicas` in the manifest would reset it on every apply
      if (hpaTargets.includes(`Deployment/${appOf(d)}`))
        expect(d.spec?.replicas, appOf(d)).toBeUndefined();
      else expect(d.spec?.replicas, appOf(d)).toBeGreaterThanOrEqual(2);
    }
  });

  it('prod: every image pinned to a version tag or a digest, never latest', () => {
    const deployments = byKind(render('overlays/prod'), 'Deployment');
    const images = deployments.flatMap((d) =>
      (d.spec?.template?.spec?.containers ?? []).map((c) => c.image ?? ''),
    );
    expect(deployments.length).toBeGreaterThan(0);
    expect(images.length).toBeGreaterThanOrEqual(deployments.length);
    for (const image of images) {
      const digest = /@sha256:[0-9a-f]{64}$/.test(image);
      const tag = /:([\w][\w.-]{0,127})$/.exec(image.replace(/^[^/]*:\d+\//, ''))?.[1];
      expect(digest || (tag !== undefined && tag !== 'latest'), image).toBe(true);
    }
  });

  it('dev: the tracing component runs Jaeger (official image) and every app sends it traces', () => {
    const objects = render('overlays/dev');
    const jaeger = byKind(objects, 'Deployment').find((d) => appOf(d) === 'jaeger');
    expect(jaeger?.spec?.template?.spec?.containers?.[0]?.image).toMatch(
      /^jaegertracing\/jaeger:2\./,
    );
    const svc = byKind(objects, 'Service').find((s) => appOf(s) === 'jaeger');
    expect(selects(svc?.spec?.selector as Labels, podLabels(jaeger!))).toBe(true);
    const otlpHttp = svc?.spec?.ports?.find((p) => p.targetPort === 'otlp-http')?.port;
    expect(otlpHttp).toBe(4318);
    for (const d of appDeployments(objects)) {
      const endpoint = envOf(d).find((e) => e.name === 'OTEL_EXPORTER_OTLP_ENDPOINT')?.value;
      expect(endpoint, appOf(d)).toBe(`http://jaeger:${otlpHttp}`);
    }
    // in: OTLP from the apps, the query API from monitoring; out: DNS only
    expect([...flows(objects, jaeger!, 'ingress')!].sort()).toEqual(
      [
        ...apps.flatMap((a) => [`app:${a} -> 4317/TCP`, `app:${a} -> 4318/TCP`]),
        'ns:monitoring -> 16686/TCP',
      ].sort(),
    );
    expect([...flows(objects, jaeger!, 'egress')!].sort()).toEqual([
      'ns:kube-system/pods:{"k8s-app":"kube-dns"} -> 53/TCP',
      'ns:kube-system/pods:{"k8s-app":"kube-dns"} -> 53/UDP',
    ]);
  });

  it.each(['base', 'overlays/dev', 'overlays/prod'])(
    '%s: every object is valid for the Kubernetes API (kubeconform -strict, schemas from k8s.io/api)',
    (dir) => {
      const r = kubeconform(renderText(dir));
      expect(r.output).toMatch(/Invalid: 0, Errors: 0, Skipped: 0/);
      expect(r.status, r.output).toBe(0);
    },
  );

  it('kubeconform refuses an unknown field, a wrong type and a missing required field', () => {
    const deployment = render('base').find((o) => o.kind === 'Deployment')!;
    type Editable = K8sObject & { spec: { selector?: unknown; template: { spec: PodSpec } } };
    const broken = (change: (d: Editable, c: Container & Record<string, unknown>) => void) => {
      const copy = structuredClone(deployment) as Editable;
      change(copy, copy.spec.template.spec.containers[0]! as Container & Record<string, unknown>);
      return JSON.stringify(copy);
    };
    const cases = [
      broken((_, c) => (c.readinesProbe = { httpGet: { path: '/readyz' } })),
      broken((_, c) => (c.ports![0]!.containerPort = 'http' as unknown as number)),
      broken((d) => delete d.spec.selector),
    ];
    for (const text of cases) expect(kubeconform(text).status, text.slice(0, 80)).not.toBe(0);
    expect(kubeconform(JSON.stringify(deployment)).status).toBe(0);
  });
});
