/**
 * The floor of `export.bench.ts`: a bare Node HTTP server in a process of its own that answers
 * `GET /` with the objects named in RELAY_KEYS_FILE (one key a line) read one after another
 * from RELAY_BUCKET and written to the response as they come (no ZIP, no CRC, no framework):
 * what any service serving the photos' bytes through itself can reach on this machine (the
 * bytes cross the loopback twice, MinIO to it and it to the client). Says its port over IPC.
 */
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { ObjectStore } from '@wayfarer/storage';

if (!process.send) throw new Error('run by export.bench.ts (with IPC)');
const keys = readFileSync(process.env.RELAY_KEYS_FILE!, 'utf8').split('\n').filter(Boolean);
const store = ObjectStore.connect({
  endpoint: process.env.S3_ENDPOINT!,
  accessKey: process.env.S3_ACCESS_KEY!,
  secretKey: process.env.S3_SECRET_KEY!,
  region: 'us-east-1',
  bucket: process.env.RELAY_BUCKET!,
});

const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/octet-stream' });
  void (async () => {
    for (const key of keys) {
      const stream = await store.get(key);
      if (!stream) throw new Error(`missing ${key}`);
      stream.pipe(res, { end: false });
      await once(stream, 'end');
    }
    res.end();
  })().catch((err: unknown) => res.destroy(err as Error));
});
server.listen(0, '127.0.0.1', () => {
  process.send!({ port: (server.address() as { port: number }).port });
});
