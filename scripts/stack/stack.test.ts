import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStack, type ProcessStatus, type RunningStack } from './stack';

/**
 * The runner with real processes: a gateway and auth of their own (namespace `restart`, ports
 * 48080 and 440xx, every other upstream pointing at a port nobody listens on), so it runs beside
 * a dev or e2e stack. A kill -9 is a real crash: the runner must start the process again, say
 * so on its output, and leave alone what was stopped on purpose.
 */
const PORTS = {
  gateway: 48080,
  auth: 44001,
  trips: 44002,
  bucketlist: 44003,
  social: 44004,
  journal: 44005,
  chat: 44006,
  chat2: 44016,
  places: 44007,
  notifications: 44008,
};
const base = `http://127.0.0.1:${PORTS.gateway}`;

describe('the stack runner restarts a crashed process', () => {
  let stack: RunningStack;
  const lines: string[] = [];
  let session = '';

  beforeAll(async () => {
    stack = await startStack({
      namespace: 'restart',
      ports: PORTS,
      only: ['auth', 'gateway'],
      logLevel: 'warn',
      // the API alone: this test needs no built frontend; sign-ups retried every 200 ms while
      // auth restarts (each one counts) must not meet the per-address limit of 30 a minute
      env: { gateway: { FRONTEND_DIST: '', AUTH_RATE_LIMIT_PER_MINUTE: '100000' } },
      log: (line) => {
        lines.push(line);
        process.stderr.write(`[stack] ${line}\n`);
      },
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const status = (name: string): ProcessStatus => {
    const found = stack.processes().find((p) => p.name === name);
    if (!found) throw new Error(`no ${name}`);
    return found;
  };

  /** Signs up through the gateway (auth behind it): the product answering, end to end. */
  const register = async () => {
    const form = new FormData();
    form.append('name', 'Restart Tester');
    form.append(
      'email',
      `restart.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`,
    );
    form.append('password', 'a long password');
    return fetch(`${base}/api/register`, { method: 'POST', body: form });
  };
  const whoAmI = () =>
    fetch(`${base}/api/protected`, { headers: { cookie: session } }).then((r) => r.status);

  /** Waits until `name` runs as a new process (another pid), then until `answers` holds. */
  async function waitRestarted(name: string, oldPid: number, answers: () => Promise<void>) {
    await vi.waitFor(
      () => {
        const now = status(name);
        expect(now.state).toBe('running');
        expect(now.pid).not.toBe(oldPid);
      },
      { timeout: 60_000, interval: 100 },
    );
    await vi.waitFor(answers, { timeout: 60_000, interval: 200 });
  }

  it('a kill -9 of the gateway: it is started again, the product answers, the output says so', async () => {
    const res = await register();
    expect(res.status).toBe(201);
    session = res.headers.getSetCookie()[0]!.split(';', 1)[0]!;
    expect(await whoAmI()).toBe(200);

    const before = status('gateway');
    expect(before).toMatchObject({ state: 'running', restarts: 0 });
    process.kill(before.pid!, 'SIGKILL');

    await waitRestarted('gateway', before.pid!, async () => expect(await whoAmI()).toBe(200));
    expect(status('gateway').restarts).toBe(1);
    expect(lines).toContain('gateway exited with signal SIGKILL; restarting in 1 s (restart 1)');
    await vi.waitFor(() =>
      expect(lines.some((l) => l.startsWith('gateway is ready again (restart 1, pid '))).toBe(true),
    );
  });

  it('a second crash soon after waits longer (the back-off grows)', async () => {
    const before = status('gateway');
    process.kill(before.pid!, 'SIGKILL');
    await waitRestarted('gateway', before.pid!, async () => expect(await whoAmI()).toBe(200));
    expect(lines).toContain('gateway exited with signal SIGKILL; restarting in 2 s (restart 2)');
    // a third crash now would wait longer still
    expect(status('gateway').backoffMs).toBe(4_000);
  });

  it('once it has run ready for the healthy period (10 s), the next crash waits 1 s again', async () => {
    await vi.waitFor(
      () => {
        expect(status('gateway').backoffMs).toBe(1_000);
        expect(lines).toContain(
          'gateway has run ready for 10 s since restart 2; its back-off is 1 s again',
        );
      },
      { timeout: 60_000, interval: 200 },
    );
    const before = status('gateway');
    process.kill(before.pid!, 'SIGKILL');
    await waitRestarted('gateway', before.pid!, async () => expect(await whoAmI()).toBe(200));
    expect(lines).toContain('gateway exited with signal SIGKILL; restarting in 1 s (restart 3)');
    expect(status('gateway').backoffMs).toBe(2_000);
  });

  it('a kill -9 of a service behind the gateway (auth): started again, sign-ups work again', async () => {
    const before = status('auth');
    process.kill(before.pid!, 'SIGKILL');
    await waitRestarted('auth', before.pid!, async () =>
      expect((await register()).status).toBe(201),
    );
    expect(lines).toContain('auth exited with signal SIGKILL; restarting in 1 s (restart 1)');
    expect(status('auth').restarts).toBe(1);
  });

  it('stopProcess stops for good: no restart until startProcess', async () => {
    const restarts = status('auth').restarts;
    await stack.stopProcess('auth');
    // the exit was seen (stopProcess waits for it) and nothing is scheduled
    expect(status('auth')).toMatchObject({ state: 'stopped', restarts });
    expect((await register()).status).toBeGreaterThanOrEqual(500);
    await stack.startProcess('auth');
    expect(status('auth')).toMatchObject({ state: 'running', restarts });
    expect((await register()).status).toBe(201);
  });

  it('a Ctrl-C (SIGINT to every process, then the runner stops the stack) restarts nothing', async () => {
    const restarts = stack.processes().map((p) => p.restarts);
    const printed = lines.length;
    for (const p of stack.processes()) process.kill(p.pid!, 'SIGINT');
    await stack.stop({ alreadySignalled: true });
    expect(stack.processes().map((p) => p.state)).toEqual(['stopped', 'stopped']);
    expect(stack.processes().map((p) => p.restarts)).toEqual(restarts);
    expect(lines.slice(printed)).toEqual([]);
  });
});
