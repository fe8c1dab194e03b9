/**
 * The chat benches' processes (`chat-process.ts`, one role each: chat, gateway, bare): started
 * on a free port (or a given one, to start an instance again where it was), stopped with a
 * signal, and all killed when the bench exits for any reason; and the benches' sessions.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createSigner } from 'fast-jwt';
import { SESSION_AUDIENCE, SESSION_COOKIE, SESSION_ISSUER } from '@wayfarer/contracts';
import { publicKeyPem } from '@wayfarer/service-kit/keys';
import { freePort } from '@wayfarer/test-kit/faults';

const { privateKey } = generateKeyPairSync('ed25519');
const signSession = createSigner({
  key: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  algorithm: 'EdDSA',
  iss: SESSION_ISSUER,
  aud: SESSION_AUDIENCE,
  expiresIn: 3_600_000,
});
/** What the benches' gateways verify sessions with (`SESSION_PUBLIC_KEY`). */
export const sessionPublicKeyPem = publicKeyPem(privateKey);
/** A `Cookie` header value: a signed-in session of `userId`, a session id of its own. */
export const sessionCookie = (userId: string) =>
  `${SESSION_COOKIE}=${signSession({ sub: userId, jti: randomUUID() })}`;

export interface BenchProcess {
  child: ChildProcess;
  port: number;
  url: string;
}

const children: ChildProcess[] = [];
process.once('exit', () => children.forEach((c) => c.kill('SIGKILL')));

/** Starts `role` (see chat-process.ts) and resolves once it listens. */
export async function start(
  role: string,
  env: Record<string, string>,
  port?: number,
): Promise<BenchProcess> {
  const listenOn = port ?? (await freePort());
  const child = fork(join(import.meta.dirname, 'chat-process.ts'), {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env, ROLE: role, PORT: String(listenOn) },
    // their logs (stdout) are not the bench's output; errors (stderr) are
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${role} exited (${code})`)));
    child.on('message', (m: { ready?: boolean }) => m.ready && resolve());
  });
  return { child, port: listenOn, url: `http://127.0.0.1:${listenOn}` };
}

/** Stops it with `signal` (SIGTERM: its graceful shutdown; SIGKILL: a crash) and waits. */
export async function stop(
  proc: { child: ChildProcess },
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<void> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  proc.child.removeAllListeners('exit');
  const exited = new Promise((resolve) => proc.child.once('exit', resolve));
  proc.child.kill(signal);
  await exited;
}

/** How many sockets a chat instance has (chat-process.ts answers over IPC). */
export function socketsOn(proc: BenchProcess): Promise<number> {
  return new Promise((resolve) => {
    const onMessage = (m: { sockets?: number }) => {
      if (m.sockets === undefined) return;
      proc.child.off('message', onMessage);
      resolve(m.sockets);
    };
    proc.child.on('message', onMessage);
    proc.child.send('sockets');
  });
}

/** The q-quantile of ascending `sorted` (nearest rank). */
export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}
