import {
  appDeployments,
  appOf,
  byKind,
  containerPort,
  envOf,
  podLabels,
  type K8sObject,
  type Labels,
} from './manifests';

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
export function flows(
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
export function networkProblems(
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
    // their owners): out from the caller, in to the callee, on its http port
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
