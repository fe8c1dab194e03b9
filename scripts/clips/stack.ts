import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { portsAt } from '../stack/services';
import { root, startStack, type RunningStack } from '../stack/stack';

/** The clip recorder's own stack: its namespace (databases, buckets, consumer groups) and ports. */
export const CLIPS_NAMESPACE = 'clips';
export const CLIPS_PORTS = portsAt(20_000);

/** The newest modification time under `path` (a file or a directory tree). */
function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = stat.mtimeMs;
  for (const entry of readdirSync(path, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) max = Math.max(max, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return max;
}

/** Builds the frontend when `frontend/dist` is missing or older than its sources (as `npm start`). */
export function ensureFrontendBuild(log: (line: string) => void): void {
  const stamp = join(root, 'frontend/dist/index.html');
  const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
  const sources = ['src', 'index.html', 'public', 'build', 'vite.config.ts'].map((p) =>
    newest(join(root, 'frontend', p)),
  );
  if (built > 0 && sources.every((t) => t <= built)) return;
  log('building the frontend (npm run build -w frontend)');
  execFileSync('npm', ['run', 'build', '-w', 'frontend'], { cwd: root, stdio: 'inherit' });
}

/** Starts the whole product in the clips namespace on the clips ports. */
export function startClipsStack(): Promise<RunningStack> {
  return startStack({ namespace: CLIPS_NAMESPACE, ports: CLIPS_PORTS, logLevel: 'warn' });
}
