import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadIdentityProofSecret } from '@wayfarer/service-kit';
import { ensureDatabase } from '@wayfarer/service-kit/pg';
import { testInfra } from '@wayfarer/test-kit';
import { DEFAULT_PORTS, STACK, type StackContext, type StackPorts } from './services';
import { rotatingLog } from './rotating-log';

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
  /** The identity proof secret every process of the stack got (tests sign direct calls with it). */
  identityProofSecret: string;
  /**
   * Stops every process at once (SIGTERM, then SIGKILL after 10 s); `alreadySignalled` delays the
   * SIGTERM by a second (the processes got the Ctrl-C themselves).
   */
  stop(options?: { alreadySignalled?: boolean }): Promise<void>;
  /** Stops one process (tests use it to see how the product behaves when a service is down). */
  stopProcess(name: string): Promise<void>;
  /** Starts a stopped process again, with the same env, and waits until it is ready. */
  startProcess(name: string): Promise<void>;
}

/**
 * Sends SIGTERM and waits for the exit, SIGKILL after 10 s. `alreadySignalled` (a Ctrl-C reached
 * the whole process group) gives the child a second to stop on that signal before the SIGTERM,
 * so a SIGINT sent to the runner alone still stops everything promptly.
 */
function terminate(child: ChildProcess, alreadySignalled = false): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const sigterm = setTimeout(() => child.kill('SIGTERM'), alreadySignalled ? 1_000 : 0);
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, 10_000);
    child.once('exit', () => {
      clearTimeout(sigterm);
      clearTimeout(timer);
      resolve();
    });
  });
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
    // one secret for the gateway and every service: the caller's, else the local one in the
    // key dir (generated once, like the dev session keys); the processes run as production
    identityProofSecret: loadIdentityProofSecret({
      IDENTITY_PROOF_SECRET: process.env.IDENTITY_PROOF_SECRET,
      SESSION_KEY_DIR: join(dataDir, 'keys'),
    }).toString(),
  };
  const children = new Map<string, ChildProcess>();
  const launchers = new Map<string, () => Promise<void>>();
  // never leave services behind: if this process ends for any reason, they end too
  process.once('exit', () => {
    for (const child of children.values()) if (child.exitCode === null) child.kill('SIGKILL');
  });
  // every process at once: each drains for a few seconds in parallel, not one after another
  const stop = async ({ alreadySignalled = false } = {}) => {
    await Promise.all([...children.values()].map((child) => terminate(child, alreadySignalled)));
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
      // rotated by size (10 MB x 3 files), so a long-running stack does not fill the disk
      const log = rotatingLog(logFile);
      const launch = async () => {
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
        children.set(proc.name, child);
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
      };
      launchers.set(proc.name, launch);
      await launch();
    }
  } catch (err) {
    await stop();
    throw err;
  }

  const known = (name: string) => {
    const launch = launchers.get(name);
    if (!launch) throw new Error(`no process named ${name} in the stack`);
    return launch;
  };
  return {
    url: `http://localhost:${ctx.ports.gateway}`,
    ports: ctx.ports,
    logDir,
    identityProofSecret: ctx.identityProofSecret,
    stop,
    async stopProcess(name) {
      known(name);
      const child = children.get(name);
      if (child) await terminate(child);
    },
    async startProcess(name) {
      const launch = known(name);
      const child = children.get(name);
      if (child && child.exitCode === null && child.signalCode === null) return;
      await launch();
    },
  };
}
