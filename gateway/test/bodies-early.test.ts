import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { bodiesGateway, NOT_AN_IMAGE } from './bodies-setup';
import { bytes, clientIp, json, send } from './wire';

// A service's early answer to a body it refuses by its head, and faults mid-body (a client or a
// service leaving), on the wire (bodies-setup.ts says how).

describe('gateway: request bodies on the wire', () => {
  const { cookie, logs, headers, gatewayLives, started } = bodiesGateway();
  let service: ReturnType<typeof started>['service'];
  let port: number;
  let base: string;
  beforeAll(() => {
    ({ service, port, base } = started());
  });

  describe("a service's early answer reaches the client (it refuses a file by its head)", () => {
    const SIZES = [1024, 300 * 1024, 3 * 1024 * 1024];
    const notAnImage = (size: number) => Buffer.alloc(size, 'x'); // text, named .jpg

    it('fetch + FormData: the service’s 400 for 1 KB, 300 KB and 3 MB files, 5 times each', async () => {
      const firstLog = logs.lines.length;
      for (const size of SIZES) {
        for (let i = 0; i < 5; i++) {
          const form = new FormData();
          form.append('tripName', 'Lisbon');
          form.append('photos', new Blob([notAnImage(size)], { type: 'image/jpeg' }), 'a.jpg');
          const res = await fetch(`${base}/api/trips`, {
            method: 'POST',
            body: form,
            headers: { cookie: cookie(), 'x-forwarded-for': clientIp() },
          });
          expect(res.status, `${size} bytes`).toBe(400);
          expect(await res.json(), `${size} bytes`).toEqual({
            error: 'bad_request',
            message: NOT_AN_IMAGE,
          });
        }
      }
      await gatewayLives(firstLog);
    });

    it('curl -F: the service’s 400 for 1 KB, 300 KB and 3 MB files, 5 times each', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'gateway-early-'));
      try {
        for (const size of SIZES) {
          const file = join(dir, `${size}.jpg`);
          await writeFile(file, notAnImage(size));
          for (let i = 0; i < 5; i++) {
            const { code, stdout, stderr } = await curl([
              '-sS',
              '-H',
              `cookie: ${cookie()}`,
              '-H',
              `x-forwarded-for: ${clientIp()}`,
              '-F',
              'tripName=Lisbon',
              '-F',
              `photos=@${file};type=image/jpeg`,
              '-w',
              '\n%{http_code}',
              `${base}/api/trips`,
            ]);
            expect({ code, stderr }, `${size} bytes`).toEqual({ code: 0, stderr: '' });
            const [body, status] = stdout.split('\n');
            expect(status, `${size} bytes`).toBe('400');
            expect(JSON.parse(body!), `${size} bytes`).toEqual({
              error: 'bad_request',
              message: NOT_AN_IMAGE,
            });
          }
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('node:http, declared length, Connection: close: the 400 arrives and the client is not reset', async () => {
      for (let i = 0; i < 5; i++) {
        const res = await send(port, {
          method: 'POST',
          path: '/api/trips',
          headers: headers({
            'content-type': 'multipart/form-data; boundary=b',
            'content-length': 3 * 1024 * 1024,
          }),
          chunks: bytes(3 * 1024 * 1024),
        });
        expect(res.status).toBe(400);
        expect(json(res).message).toBe(NOT_AN_IMAGE);
        expect(res.clientError).toBeNull();
      }
    });
  });

  describe('faults mid-body', () => {
    it('a client leaving mid-body (chunked or declared) leaves no error behind and nothing forwarded whole', async () => {
      const firstLog = logs.lines.length;
      for (const declared of [false, true]) {
        const path = `/api/journal/left-${declared ? 'declared' : 'chunked'}-${randomUUID()}`;
        const client = httpRequest({
          host: '127.0.0.1',
          port,
          method: 'POST',
          path,
          headers: headers(declared ? { 'content-length': 200 * 1024 } : {}),
          agent: false,
        });
        client.on('error', () => undefined);
        client.write(Buffer.alloc(64 * 1024, 'a'));
        // the service has the request's start: the body is streaming through the gateway
        await vi.waitFor(() => expect(service.started).toContain(path));
        client.destroy();
        // the gateway let go of the upstream request too, and never completed it
        await vi.waitFor(() => expect(service.ended).toContain(path));
        expect(service.answered).not.toContain(path);
      }
      await gatewayLives(firstLog);
    });

    it('a service cutting the connection mid-body gets the client a 502 it can read', async () => {
      const firstLog = logs.lines.length;
      for (const declared of [false, true]) {
        const size = 200 * 1024;
        const res = await send(port, {
          method: 'POST',
          path: '/api/places/search',
          headers: headers(declared ? { 'content-length': size } : {}),
          chunks: bytes(size),
        });
        expect(res.status).toBe(502);
        expect(json(res)).toEqual({
          error: 'bad_gateway',
          message: 'The places service answered badly. Please try again.',
        });
        expect(res.clientError).toBeNull();
      }
      await gatewayLives(firstLog);
    });
  });
});

function curl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('curl', args, { encoding: 'utf8' }, (err, stdout, stderr) =>
      resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr: stderr.trim() }),
    );
  });
}
