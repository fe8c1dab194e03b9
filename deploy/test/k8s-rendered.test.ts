import { describe, expect, it } from 'vitest';
import { deploymentProblems, secretProblems } from './k8s/deployment-rules';
import {
  appDeployments,
  appOf,
  apps,
  byKind,
  configMapsOf,
  envOf,
  podLabels,
  selects,
  type Container,
  type K8sObject,
  type Labels,
  type PodSpec,
} from './k8s/manifests';
import { flows } from './k8s/network-rules';
import { stackProblems } from './k8s/stack-rules';
import { kubeconform, render, renderText } from './k8s/tools';

// deploy/k8s as kustomize renders the base and each overlay: the rules of k8s.test.ts, the
// overlays' own settings, and kubeconform -strict against the Kubernetes API schemas.

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
