import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadIdentityProofSecret } from '@wayfarer/service-kit';
import { loadSigningKey, publicKeyPem } from '@wayfarer/service-kit/keys';
import { ensureDatabase } from '@wayfarer/service-kit/pg';
import { testInfra } from '@wayfarer/test-kit';
import {
  crashesInARowAfter,
  restartDelayMs,
  restartLine,
  RESTART_POLICY,
  seriesEndLine,
  shouldRestart,
  type RestartPolicy,
} from './restart-policy';
import { DEFAULT_PORTS, STACK, type StackContext, type StackPorts } from './services';
import { rotatingLog } from './rotating-log';
import { NODE_ARGS, telemetryEnv } from './telemetry';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface StackOptions {
  ports?: Partial<StackPorts>;
  /** '' for the dev stack; e.g. 'e2e' for a test stack with its own databases. */
  namespace?: string;
  logLevel?: string;
  /** Echo service logs to this process's stdout (prefixed) as well as to log files. */
  echo?: boolean;
  /** Only these processes of `STACK` (names, e.g. ['auth', 'gateway']); default: all of them. */
  only?: readonly string[];
  /**
   * Where the runner's own lines go (a process exited and is restarted, is ready again); default
   * stderr, prefixed `[stack]`.
   */
  log?: (line: string) => void;
  /** Extra env of some processes, by name (e.g. `{ gateway: { FRONTEND_DIST: '' } }`: API only). */
  env?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** The restart back-off (tests of the runner may shorten it); default `RESTART_POLICY`. */
  restartPolicy?: RestartPolicy;
}

/** One process of a running stack, as the runner sees it. */
export interface ProcessStatus {
  name: string;
  /** The current child's pid (the last one, when it is not running). */
  pid: number | undefined;
  /**
   * 'running': up (ready or starting); 'restarting': exited on its own, waiting for its back-off
   * before it is started again; 'stopped': stopped on purpose (`stopProcess`, `stop`).
   */
  state: 'running' | 'restarting' | 'stopped';
  /** Restarts after exits the runner did not ask for, since the stack started. */
  restarts: number;
  /**
   * How long a crash now would wait before its restart: `firstDelayMs` (1 s) unless the process
   * crashed and has not yet run ready through the healthy period since (`restart-policy.ts`).
   */
  backoffMs: number;
}

export interface RunningStack {
  url: string;
  ports: StackPorts;
  logDir: string;
  /** The identity proof secret every process of the stack got (tests sign direct calls with it). */
  identityProofSecret: string;
  /**
   * Stops every process at once (SIGTERM, then SIGKILL after 10 s); `alreadySignalled` delays the
   * SIGTERM by a second (the processes got the Ctrl-C themselves). Nothing is restarted after.
   */
  stop(options?: { alreadySignalled?: boolean }): Promise<void>;
  /**
   * Stops one process (tests use it to see how the product behaves when a service is down); it
   * stays down, not restarted, until `startProcess`.
   */
  stopProcess(name: string): Promise<void>;
  /** Starts a stopped process again, with the same env, and waits until it is ready. */
  startProcess(name: string): Promise<void>;
  /** Each process: pid, state, restarts (tests check that nothing crashed meanwhile). */
  processes(): ProcessStatus[];
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

const running = (child: ChildProcess | undefined): boolean =>
  child !== undefined && child.exitCode === null && child.signalCode === null;

async function waitReady(name: string, port: number, child: ChildProcess, logFile: string) {
  const deadline = Date.now() + 60_000;
  let last = '';
  while (Date.now() < deadline) {
    if (!running(child)) {
      const how = child.signalCode ? `signal ${child.signalCode}` : `code ${child.exitCode}`;
      throw new Error(`${name} exited with ${how} while starting; see ${logFile}`);
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

/** One supervised process: its current child and its restart history. */
interface Slot {
  name: string;
  launch: () => Promise<void>;
  child?: ChildProcess;
  /** Cleared by `stopProcess` (a stop asked for: its exit is not restarted), set by a start. */
  wanted: boolean;
  /** Ready once: from then on, an exit it did not ask for is restarted. */
  supervised: boolean;
  readyAt: number | null;
  crashesInARow: number;
  restarts: number;
  restartTimer?: NodeJS.Timeout;
  /** Ends the series of crashes once the process has run ready for the healthy period. */
  healthyTimer?: NodeJS.Timeout;
}

/**
 * Starts every process of the stack (or `only` some) against the infra of deploy/local (or env),
 * in order, and supervises them: a process that exits without being asked to (a crash, a kill -9,
 * out of memory) is restarted after a back-off (`restart-policy.ts`), with a line on the runner's
 * output.
 */
export async function startStack(options: StackOptions = {}): Promise<RunningStack> {
  const namespace = options.namespace ?? '';
  const dataDir = join(root, '.data');
  const logDir = join(dataDir, 'logs', namespace || 'dev');
  mkdirSync(logDir, { recursive: true });
  const say = options.log ?? ((line: string) => process.stderr.write(`[stack] ${line}\n`));
  const policy = options.restartPolicy ?? RESTART_POLICY;
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
    // the dev key pair (generated once into the key dir, which only auth is given)
    sessionPublicKey: publicKeyPem(loadSigningKey({ SESSION_KEY_DIR: join(dataDir, 'keys') })),
  };
  const only = options.only ? new Set(options.only) : null;
  for (const name of only ?? []) {
    if (!STACK.some((p) => p.name === name)) throw new Error(`no process named ${name} in STACK`);
  }
  const slots = new Map<string, Slot>();
  let stopping = false;
  // never leave services behind: if this process ends for any reason, they end too
  process.once('exit', () => {
    for (const slot of slots.values()) if (running(slot.child)) slot.child?.kill('SIGKILL');
  });

  /** A child exited: restarted after its back-off, unless the exit was asked for. */
  const onExit = (
    slot: Slot,
    child: ChildProcess,
    code: number | null,
    signal: NodeJS.Signals | null,
  ) => {
    if (slot.child !== child || !slot.supervised) return; // an old child; or the first start
    clearTimeout(slot.healthyTimer);
    if (!shouldRestart({ stackStopping: stopping, stopAsked: !slot.wanted })) return;
    // the series is judged here too, not only by the healthy timer (which may fire late)
    const readyFor = slot.readyAt === null ? null : Date.now() - slot.readyAt;
    slot.readyAt = null;
    slot.crashesInARow = crashesInARowAfter(slot.crashesInARow, readyFor, policy);
    slot.restarts += 1;
    const delay = restartDelayMs(slot.crashesInARow, policy);
    const number = slot.restarts;
    say(restartLine(slot.name, { code, signal }, delay, number));
    slot.restartTimer = setTimeout(() => {
      slot.restartTimer = undefined;
      if (stopping || !slot.wanted) return;
      slot.launch().then(
        () => say(`${slot.name} is ready again (restart ${number}, pid ${slot.child?.pid})`),
        // an exit while starting is restarted by onExit; a start that hangs is only reported
        (err: Error) => {
          if (!stopping && slot.wanted)
            say(`${slot.name} restart ${number} failed: ${err.message}`);
        },
      );
    }, delay);
  };

  // every process at once: each drains for a few seconds in parallel, not one after another
  const stop = async ({ alreadySignalled = false } = {}) => {
    stopping = true;
    for (const slot of slots.values()) {
      clearTimeout(slot.restartTimer);
      clearTimeout(slot.healthyTimer);
    }
    await Promise.all(
      [...slots.values()].flatMap((slot) =>
        slot.child ? [terminate(slot.child, alreadySignalled)] : [],
      ),
    );
  };

  try {
    for (const proc of STACK) {
      if (only && !only.has(proc.name)) continue;
      const dbUrls: Record<string, string> = {};
      for (const db of proc.databases ?? []) {
        const name = namespace ? `${db}_${namespace}` : db;
        dbUrls[db] = await ensureDatabase(ctx.infra.pgUrl, name);
      }
      const port = proc.port(ctx);
      const env = {
        ...proc.env(ctx, (db) => {
          const url = dbUrls[db];
          if (!url) throw new Error(`${proc.name} asked for undeclared database ${db}`);
          return url;
        }),
        ...options.env?.[proc.name],
      };
      const logFile = join(logDir, `${proc.name}.log`);
      // rotated by size (10 MB x 3 files), so a long-running stack does not fill the disk
      const log = rotatingLog(logFile);
      const slot: Slot = {
        name: proc.name,
        wanted: true,
        supervised: false,
        readyAt: null,
        crashesInARow: 0,
        restarts: 0,
        launch: async () => {
          const child = spawn(process.execPath, [...NODE_ARGS, 'src/main.ts'], {
            cwd: join(root, proc.dir),
            env: {
              ...process.env,
              ...telemetryEnv(),
              ...env,
              NODE_ENV: process.env.NODE_ENV ?? 'production',
              // the service exits if this supervisor disappears (e.g. killed with SIGKILL)
              WAYFARER_SUPERVISOR_PID: String(process.pid),
            },
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          slot.child = child;
          child.once('exit', (code, signal) => onExit(slot, child, code, signal));
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
          if (slot.child === child) {
            slot.readyAt = Date.now();
            slot.supervised = true;
            // ready through the healthy period: the series is over, the next crash waits 1 s
            // (CrashLoopBackOff's reset); what `processes()` shows as `backoffMs`
            if (slot.crashesInARow > 0) {
              clearTimeout(slot.healthyTimer);
              slot.healthyTimer = setTimeout(() => {
                if (slot.child !== child || !running(child)) return;
                slot.crashesInARow = 0;
                say(seriesEndLine(slot.name, slot.restarts, policy));
              }, policy.healthyResetMs);
              slot.healthyTimer.unref();
            }
          }
        },
      };
      slots.set(proc.name, slot);
      await slot.launch();
    }
  } catch (err) {
    await stop();
    throw err;
  }

  const known = (name: string): Slot => {
    const slot = slots.get(name);
    if (!slot) throw new Error(`no process named ${name} in the stack`);
    return slot;
  };
  return {
    url: `http://localhost:${ctx.ports.gateway}`,
    ports: ctx.ports,
    logDir,
    identityProofSecret: ctx.identityProofSecret,
    stop,
    async stopProcess(name) {
      const slot = known(name);
      slot.wanted = false;
      clearTimeout(slot.restartTimer);
      slot.restartTimer = undefined;
      if (slot.child) await terminate(slot.child);
    },
    async startProcess(name) {
      const slot = known(name);
      slot.wanted = true;
      clearTimeout(slot.restartTimer);
      slot.restartTimer = undefined;
      if (running(slot.child)) return;
      await slot.launch();
    },
    processes() {
      return [...slots.values()].map((slot) => ({
        name: slot.name,
        pid: slot.child?.pid,
        state: running(slot.child) ? 'running' : slot.restartTimer ? 'restarting' : 'stopped',
        restarts: slot.restarts,
        backoffMs: restartDelayMs(slot.crashesInARow + 1, policy),
      }));
    },
  };
}
