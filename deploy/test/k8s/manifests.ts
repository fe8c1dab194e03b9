import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { DEFAULT_PORTS, STACK } from '../../../scripts/stack/services';

// deploy/k8s (kustomize base + overlays) read and parsed, and the small helpers the rules share.
// Every rule (deployment-rules.ts, network-rules.ts, stack-rules.ts) is a function that returns
// its problems, so the same rules run on the files as written (k8s.test.ts) and on what each
// overlay renders to (k8s-rendered.test.ts).

export const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
export const k8sDir = join(root, 'deploy/k8s');
export const rel = (file: string) => relative(root, file);

// ------------------------------------------------------------------ types (the parts we read)
export type Labels = Record<string, string>;
export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name?: string; key?: string; optional?: boolean };
    configMapKeyRef?: { name?: string; key?: string };
    fieldRef?: unknown;
  };
}
export interface Probe {
  httpGet?: { path?: string; port?: string | number };
}
export interface Container {
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
export interface PodSpec {
  containers: Container[];
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  terminationGracePeriodSeconds?: number;
  volumes?: { name: string; emptyDir?: object }[];
}
export interface K8sObject {
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
export interface Kustomization {
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
export function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(entry) ? [path] : [];
  });
}

export function parseDocs(text: string, where: string): unknown[] {
  return parseAllDocuments(text).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`${where}: ${doc.errors[0]!.message}`);
    return doc.toJS() as unknown;
  });
}

export const files = yamlFiles(k8sDir);
export const parsed = new Map(
  files.map((file) => [file, parseDocs(readFileSync(file, 'utf8'), rel(file))]),
);
export const kustomizationFiles = files.filter((f) => /(^|\/)kustomization\.ya?ml$/.test(f));
export const kustomizations = new Map(
  kustomizationFiles.map((f) => [f, (parsed.get(f)![0] ?? {}) as Kustomization]),
);

/** Files that kustomizations use as patches: partial objects, not resources. */
export const patchFiles = new Set(
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

export const isObject = (v: unknown): v is K8sObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && 'kind' in v;

export const baseKustomizationFile = join(k8sDir, 'base/kustomization.yaml');
export const baseKustomization = kustomizations.get(baseKustomizationFile) ?? {};
/** The base's resources: the files it lists, parsed. */
export const baseObjects: K8sObject[] = (baseKustomization.resources ?? []).flatMap((r) => {
  const file = join(k8sDir, 'base', r);
  return existsSync(file) && statSync(file).isFile()
    ? (parsed.get(file) ?? []).filter(isObject)
    : [];
});

/** ConfigMaps by name: plain ConfigMap objects and configMapGenerator literals. */
export function configMapsOf(
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

// ------------------------------------------------------------------ what the rules share
export const SECRET_NAME =
  /KEY|PASSWORD|SECRET|TOKEN|CREDENTIAL|^DATABASE_URL$|^MONGO_URL$|^REDIS_URL$/;
export const CREDENTIAL_IN_URL = /^[a-z][a-z0-9+.-]*:\/\/[^/@\s]*:[^/@\s]+@/i;
export const PEM = /-----BEGIN [A-Z ]*KEY-----/;

// One Deployment per workspace: a workspace the local stack runs as several processes (chat,
// chat2) is one Deployment with replicas, named after its first process.
export const apps = STACK.filter((s, i) => STACK.findIndex((t) => t.dir === s.dir) === i).map(
  (s) => s.name,
);
/** Seconds of an ingress-nginx timeout annotation (`proxy-read-timeout`, ...). */
export const nginxSeconds = (ing: K8sObject, key: string) =>
  Number(ing.metadata?.annotations?.[`nginx.ingress.kubernetes.io/${key}`] ?? 60);

export const ports = DEFAULT_PORTS as unknown as Record<string, number>;
export const appOf = (o: K8sObject) => o.metadata?.name ?? '?';
export const byKind = (objects: K8sObject[], kind: string) =>
  objects.filter((o) => o.kind === kind);
export const podLabels = (d: K8sObject): Labels => d.spec?.template?.metadata?.labels ?? {};
export const selects = (selector: Labels | undefined, labels: Labels) =>
  !!selector &&
  Object.keys(selector).length > 0 &&
  Object.entries(selector).every(([k, v]) => labels[k] === v);
export const envOf = (d: K8sObject) => d.spec?.template?.spec?.containers?.[0]?.env ?? [];

const isApp = (d: K8sObject) => apps.includes(appOf(d));
/** The Deployments of the apps (not, e.g., the tracing component's jaeger). */
export const appDeployments = (objects: K8sObject[]) => byKind(objects, 'Deployment').filter(isApp);
export const containerPort = (d: K8sObject, name: string) =>
  d.spec?.template?.spec?.containers?.[0]?.ports?.find((p) => p.name === name)?.containerPort;
