import {
  CREDENTIAL_IN_URL,
  PEM,
  SECRET_NAME,
  appDeployments,
  appOf,
  byKind,
  containerPort,
  envOf,
  podLabels,
  selects,
  type Container,
  type K8sObject,
  type Labels,
} from './manifests';

// The rules of one Deployment (probes, resources, security, env, its Service), of where
// Prometheus scrapes the apps, and of the secrets kept out of the manifests.

function portMatches(port: string | number | undefined, c: Container): boolean {
  return (c.ports ?? []).some(
    (p) => port === p.containerPort || (port !== undefined && port === p.name),
  );
}

/** Everything a Deployment must have; returns what is wrong, with the Deployment's name. */
export function deploymentProblems(
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

/**
 * Where Prometheus scrapes each app (deploy/prometheus/README.md): the pod annotations name
 * `/metrics` on the service's own port, or on the gateway's `metrics` port, which its env
 * names and no Service exposes (the Ingress reaches only Services).
 */
export function metricsProblems(objects: K8sObject[]): string[] {
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

/** No credential in a ConfigMap, no Secret object, no secretGenerator, no PEM anywhere. */
export function secretProblems(
  objects: K8sObject[],
  configMaps: Map<string, Record<string, string>>,
) {
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
