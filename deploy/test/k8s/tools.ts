import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseEnvFile } from '@wayfarer/test-kit';
import { isObject, k8sDir, parseDocs, root, type K8sObject } from './manifests';

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

export const rendered = new Map<string, string>();
export function renderText(dir: string): string {
  const [cmd, ...args] = tool('KUSTOMIZE').split(' ');
  if (!rendered.has(dir)) {
    const out = spawnSync(cmd!, [...args, join(k8sDir, dir)], { encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`${tool('KUSTOMIZE')} ${dir} failed:\n${out.stderr}`);
    rendered.set(dir, out.stdout);
  }
  return rendered.get(dir)!;
}
export const render = (dir: string): K8sObject[] =>
  parseDocs(renderText(dir), dir).filter(isObject);

/** kubeconform -strict against the generated schemas; returns its output and exit status. */
export function kubeconform(yamlText: string) {
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
