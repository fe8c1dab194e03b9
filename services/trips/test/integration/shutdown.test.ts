import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { request, Agent } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { gatewayHeaders } from '@wayfarer/test-kit';
import { png } from '../fixtures';
import { multipart, newUserId, tripFields } from './harness';
import { cleanUp, processEnv, startTripsProcess, type TripsProcess } from './process';

const procs: TripsProcess[] = [];
let env: Record<string, string>;
let spoolDir: string;
afterAll(async () => {
  if (env) await cleanUp(env, procs);
  if (spoolDir) await rm(spoolDir, { recursive: true, force: true });
});

/** Files (not directories) under `dir`, at any depth. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** A GET over `agent` (keep-alive): status and the connection header of the answer. */
function get(url: string, agent: Agent, userId: string) {
  const path = '/api/mytrips';
  return new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
    const req = request(
      `${url}${path}`,
      { agent, headers: gatewayHeaders('GET', path, { userId }) },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('SIGTERM stops trips in a few seconds, whatever its clients hold open', () => {
  it('with idle keep-alive connections and an upload stalled half way, it exits 0', async () => {
    spoolDir = await mkdtemp(join(tmpdir(), 'trips-shutdown-spool-'));
    env = await processEnv({ SPOOL_DIR: spoolDir });
    const proc = await startTripsProcess(env);
    procs.push(proc);
    const userId = newUserId();

    // keep-alive connections, idle once answered
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const answers = await Promise.all([1, 2, 3].map(() => get(proc.url, agent, userId)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.every((a) => a.connection === 'keep-alive')).toBe(true);

    // an upload whose client stops sending half way: the request stays in flight
    const body = await multipart(
      tripFields({ name: 'Stalled' }, [{ name: 'Oslo', latitude: '1', longitude: '2' }]),
      [{ field: 'photos[0]', data: await png(400, 300), filename: 'a.png', type: 'image/png' }],
    );
    const socket = connect(Number(env.PORT), '127.0.0.1');
    let socketClosed = false;
    socket.on('close', () => (socketClosed = true));
    socket.on('error', () => undefined);
    const head = Object.entries({
      host: `127.0.0.1:${env.PORT}`,
      'content-length': String(body.payload.length),
      ...body.headers,
      ...gatewayHeaders('POST', '/api/trips', { userId }),
    })
      .map(([name, value]) => `${name}: ${value}`)
      .join('\r\n');
    socket.write(`POST /api/trips HTTP/1.1\r\n${head}\r\n\r\n`);
    socket.write(body.payload.subarray(0, body.payload.length - 500));
    // in flight: the service is spooling the photo
    await vi.waitFor(async () => expect(await filesUnder(spoolDir)).not.toEqual([]));

    proc.child.kill('SIGTERM');
    // a bound for the test, not a measured duration: the old shutdown waited out 10 s, then 1
    await vi.waitFor(() => expect(proc.exited()).toBe(true), { timeout: 8000, interval: 50 });
    expect(proc.exitCode(), proc.output()).toBe(0);
    await vi.waitFor(() => expect(socketClosed).toBe(true), { timeout: 2000 });
    // what it spooled is gone with it
    expect(await filesUnder(spoolDir)).toEqual([]);
    agent.destroy();
  });
});
