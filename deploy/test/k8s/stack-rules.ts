import { BodyLimits, ImportLimits, largestBodyMaxMiB } from '@wayfarer/contracts';
import { metricsProblems } from './deployment-rules';
import {
  appDeployments,
  appOf,
  apps,
  byKind,
  envOf,
  nginxSeconds,
  podLabels,
  ports,
  selects,
  type EnvVar,
  type K8sObject,
  type Labels,
} from './manifests';
import { networkProblems } from './network-rules';

/** The rules across Deployments: session keys, upstream URLs, ingress, PDB, network policy, metrics. */
export function stackProblems(
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
    // the trips import (/api/import), routed with a read timeout past the gateway's own wait
    // for its answer and a body cap of the import's size
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
