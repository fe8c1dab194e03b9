import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deploymentProblems, secretProblems } from './k8s/deployment-rules';
import {
  PEM,
  appOf,
  apps,
  baseKustomization,
  baseObjects,
  byKind,
  configMapsOf,
  envOf,
  files,
  isObject,
  k8sDir,
  kustomizationFiles,
  kustomizations,
  parsed,
  patchFiles,
  rel,
  root,
} from './k8s/manifests';
import { stackProblems } from './k8s/stack-rules';

// Static checks of deploy/k8s (kustomize base + overlays) as written. The same rules run on
// what each overlay renders to in k8s-rendered.test.ts.

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
