/**
 * NGINX as the hop an operator would otherwise put in front of auth: Debian's
 * `nginx`, one worker, upstream keep-alive, HTTP/1.1 to the upstream, an access log written as
 * NGINX writes one when told to buffer it (64 KiB, flushed every second: the gateway batches
 * its own the same way). It forwards the client's headers as they are (the bench's client sends
 * the identity proof auth needs, as for the bare hop) and adds `X-Forwarded-For`.
 *
 * Started as its own master process (`daemon off`) in a temporary prefix; its CPU is the
 * worker's (`/proc/<worker>/stat`, user + system), read like the Node hops' `process.cpuUsage`.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's binary (in /usr/sbin, which a CI's PATH may not have), else the PATH's. */
const NGINX = existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';

export function nginxAvailable(): boolean {
  try {
    execFileSync(NGINX, ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function nginxConfig(dir: string, port: number, upstreamPort: number): string {
  return `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log ${dir}/access.log combined buffer=64k flush=1s;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  upstream auth {
    server 127.0.0.1:${upstreamPort};
    keepalive 128;
  }
  server {
    listen 127.0.0.1:${port} reuseport;
    location / {
      proxy_pass http://auth;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header X-Forwarded-For $remote_addr;
    }
  }
}
`;
}

/** Clock ticks per second of /proc's CPU times. */
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

export interface NginxHop {
  child: ChildProcess;
  url: string;
  /** The worker's CPU so far, user + system, in µs (tick resolution: 10 ms). */
  cpu(): Promise<number>;
  stop(): Promise<void>;
}

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

export async function startNginx(port: number, upstreamPort: number): Promise<NginxHop> {
  const dir = mkdtempSync(join(tmpdir(), 'wayfarer-bench-nginx-'));
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, nginxConfig(dir, port, upstreamPort));
  const child = spawn(NGINX, ['-p', dir, '-c', conf], { stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let i = 0; !(await portOpen(port)); i++) {
    if (child.exitCode !== null || i > 100) {
      throw new Error(`nginx did not start: ${readFileSync(join(dir, 'error.log'), 'utf8')}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const children = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim();
  const workers = children.split(/\s+/).filter(Boolean);
  if (workers.length !== 1) throw new Error(`nginx: ${workers.length} workers, expected 1`);
  const worker = workers[0]!;
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    cpu: async () => {
      // fields after the command's closing parenthesis: utime is the 12th, stime the 13th
      const stat = readFileSync(`/proc/${worker}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS) * 1e6;
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGQUIT'); // graceful: the worker finishes its connections
      await exited;
    },
  };
}
