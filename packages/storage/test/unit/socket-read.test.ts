import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { getOverSocket, ObjectReadError } from '../../src/socket-read';

// The answers an object store could give that a healthy MinIO never does (the happy paths run
// against the real MinIO in test/integration/object-store.test.ts): a loopback server writes
// them byte for byte.
let server: Server | null = null;
afterEach(() => {
  server?.close();
  server = null;
});

async function answering(answer: (write: (bytes: string) => void, end: () => void) => void) {
  server = createServer((socket) => {
    socket.once('data', () =>
      answer(
        (bytes) => socket.write(bytes),
        () => socket.end(),
      ),
    );
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return new URL(`http://127.0.0.1:${port}/bucket/key?X-Amz-Signature=x`);
}

const options = { idleTimeoutMs: 5000 };

describe('getOverSocket', () => {
  it('fails the stream when the connection closes before Content-Length bytes (never a short object)', async () => {
    const url = await answering((write, end) => {
      write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n');
      write('x'.repeat(40));
      end();
    });
    const pieces = (await getOverSocket(url, options))!;
    const read = (async () => {
      for (let piece = await pieces.next(); piece; piece = await pieces.next()) piece.release();
    })();
    await expect(read).rejects.toThrow(/closed early/);
  });

  it('turns another status into an ObjectReadError with its code, and a head split over reads is fine', async () => {
    const url = await answering((write, end) => {
      write('HTTP/1.1 503 Service Unavailable\r\nContent-Le');
      setTimeout(() => {
        write('ngth: 40\r\n\r\n<Error><Code>SlowDown</Code></Error>');
        end();
      }, 20);
    });
    const err = await getOverSocket(url, options).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ObjectReadError);
    expect(err).toMatchObject({ status: 503, message: expect.stringContaining('SlowDown') });
  });

  it('refuses an answer without a Content-Length', async () => {
    const url = await answering((write, end) => {
      write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n');
      end();
    });
    await expect(getOverSocket(url, options)).rejects.toThrow(/without a Content-Length/);
  });

  it('fails on more bytes than the Content-Length', async () => {
    const url = await answering((write, end) => {
      write('HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabcdef');
      end();
    });
    await expect(getOverSocket(url, options)).rejects.toThrow(/more bytes/);
  });
});
