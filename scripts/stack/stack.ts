import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDatabase } from '@wayfarer/service-kit/pg';
import { testInfra } from '@wayfarer/test-kit';
import { DEFAULT_PORTS, STACK, type StackContext, type StackPorts } from './services';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface StackOptions {
  ports?: Partial<StackPorts>;
  /** '' for the dev stack; e.g. 'e2e' for a test stack with its own databases. */
  namespace?: string;
  logLevel?: string;
  /** Echo service logs to this process's stdout (prefixed) as well as to log files. */
  echo?: boolean;
}

export interface RunningStack {
  url: string;
  ports: StackPorts;
  logDir: string;
  /** Stops every process (SIGTERM, then SIGKILL after 10 s); `alreadySignalled` skips the SIGTERM. */
  stop(options?: { alreadySignalled?: boolean }): Promise<void>;
}

async function waitReady(name: string, port: number, child: ChildProcess, logFile: string) {
  const deadline = Date.now() + 60_000;
  let last = '';
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`${name} exited with code ${child.exitCode} while starting; see ${logFile}`);
    }
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (res.ok) return;
      last = await res.text();
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${name} was not ready on port ${port} after 60 s (${last}); see ${logFile}`);
}

/** Starts every process of the stack against the infra of deploy/local (or env), in order. */
export async function startStack(options: StackOptions = {}): Promise<RunningStack> {
  const namespace = options.namespace ?? '';
  const dataDir = join(root, '.data');
  const logDir = join(dataDir, 'logs', namespace || 'dev');
  mkdirSync(logDir, { recursive: true });
  const ctx: StackContext = {
    root,
    infra: testInfra(),
    ports: { ...DEFAULT_PORTS, ...options.ports },
    namespace,
    dataDir,
    logLevel: options.logLevel ?? 'info',
  };
  const children: { name: string; child: ChildProcess }[] = [];
  // never leave services behind: if this process ends for any reason, they end too
  process.once('exit', () => {
    for (const { child } of children) if (child.exitCode === null) child.kill('SIGKILL');
  });
  const stop = async ({ alreadySignalled = false } = {}) => {
    for (const { child } of [...children].reverse()) {
      if (child.exitCode !== null) continue;
      if (!alreadySignalled) child.kill('SIGTERM');
      await new Promise<void>((r) => {
        const t = setTimeout(() => {
          child.kill('SIGKILL');
          r();
        }, 10_000);
        child.once('exit', () => {
          clearTimeout(t);
          r();
        });
      });
    }
  };

  try {
    for (const proc of STACK) {
      const dbUrls: Record<string, string> = {};
      for (const db of proc.databases ?? []) {
        const name = namespace ? `${db}_${namespace}` : db;
        dbUrls[db] = await ensureDatabase(ctx.infra.pgUrl, name);
      }
      const port = proc.port(ctx);
      const env = proc.env(ctx, (db) => {
        const url = dbUrls[db];
        if (!url) throw new Error(`${proc.name} asked for undeclared database ${db}`);
        return url;
      });
      const logFile = join(logDir, `${proc.name}.log`);
      const log = createWriteStream(logFile, { flags: 'a' });
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: join(root, proc.dir),
        env: {
          ...process.env,
          ...env,
          NODE_ENV: process.env.NODE_ENV ?? 'production',
          // the service exits if this supervisor disappears (e.g. killed with SIGKILL)
          WAYFARER_SUPERVISOR_PID: String(process.pid),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push({ name: proc.name, child });
      for (const stream of [child.stdout, child.stderr]) {
        stream?.pipe(log, { end: false });
        if (options.echo) {
          stream?.on('data', (chunk: Buffer) => {
            for (const line of chunk.toString().split('\n')) {
              if (line) process.stdout.write(`[${proc.name}] ${line}\n`);
            }
          });
        }
      }
      await waitReady(proc.name, port, child, logFile);
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: `http://localhost:${ctx.ports.gateway}`, ports: ctx.ports, logDir, stop };
}
