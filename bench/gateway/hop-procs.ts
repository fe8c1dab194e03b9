import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '@wayfarer/test-kit/faults';

// The processes of the hop bench (hop.bench.ts): each side in a process of its own
// (hop-process.ts), asked for its CPU time over IPC; every child killed when the bench exits.

export interface Proc {
  child: ChildProcess;
  port: number;
  url: string;
  cpu(): Promise<number>; // user + system, µs
}

const children: ChildProcess[] = [];
process.once('exit', () => children.forEach((c) => c.kill('SIGKILL')));
// interrupted (Ctrl-C, a timeout): exit, so that the hook above stops every child
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(1));

/** Starts `role` (hop-process.ts, or `script`) on a free port; resolves once it is ready. */
export async function start(
  role: string,
  env: Record<string, string>,
  execArgv: string[] = [],
  script = join(import.meta.dirname, 'hop-process.ts'),
) {
  const port = await freePort();
  const child = fork(script, {
    execArgv: ['--import', 'tsx', ...execArgv],
    env: { ...process.env, ...env, ROLE: role, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${role} exited (${code})`)));
    child.on('message', (m: { ready?: boolean }) => m.ready && resolve());
  });
  let nextId = 1;
  const proc: Proc = {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    cpu: () =>
      new Promise((resolve) => {
        const id = nextId++;
        const onMessage = (m: { id?: number; cpu?: NodeJS.CpuUsage }) => {
          if (m.id !== id || !m.cpu) return;
          child.off('message', onMessage);
          resolve(m.cpu.user + m.cpu.system);
        };
        child.on('message', onMessage);
        child.send({ id, kind: 'cpu' });
      }),
  };
  return proc;
}

/** Stops a side with SIGTERM (it drains, and writes its --cpu-prof profile) and waits. */
export async function stop(proc: Proc) {
  if (proc.child.exitCode !== null) return;
  proc.child.removeAllListeners('exit');
  const exited = new Promise((resolve) => proc.child.once('exit', resolve));
  proc.child.kill('SIGTERM');
  await exited;
}
