import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';

// What the fault servers (redis-server.ts, kafka-server.ts) share: a free port, a child process
// started until it logs that it is ready, and killed like a crash.

/** A free loopback TCP port (the OS picks one; it is released before returning). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * Resolves once `child` has written `line` (stdout or stderr); rejects with its last output if
 * it exits or fails to spawn first. Its output is drained for its whole life (a full pipe
 * would block it).
 */
export function readyLine(child: ChildProcess, line: string, name: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let tail = '';
    let ready = false;
    const onData = (chunk: Buffer) => {
      if (ready) return;
      tail = (tail + chunk.toString()).slice(-8000);
      if (!tail.includes(line)) return;
      ready = true;
      child.off('exit', onExit);
      child.off('error', onExit);
      resolve();
    };
    const onExit = (codeOrError: unknown) => {
      reject(new Error(`${name} exited at start (${String(codeOrError)}):\n${tail}`));
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onExit);
  });
}

/** Kills `child` with SIGKILL (a crash) and waits until the process is gone. */
export async function crash(child: ChildProcess | null): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}
