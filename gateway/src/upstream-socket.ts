import type { Socket } from 'node:net';
import { buildConnector } from 'undici';
import { runUntraced } from '@wayfarer/service-kit';

/** Write errors meaning the service has closed its end of the connection. */
const PEER_GONE = new Set(['EPIPE', 'ECONNRESET']);

type WriteCallback = (error?: Error | null) => void;

/**
 * The connections to the services: undici's own connector, with one change. A write to a service
 * that has already closed its end (EPIPE, ECONNRESET) is dropped instead of failing the socket.
 *
 * A service may answer before it has read the whole body (a 400 for a file that is not an image,
 * sniffed from its first bytes) and close the connection while the gateway is still streaming
 * the body to it. Its answer is then already in the socket's receive buffer, but the next write
 * fails first, and undici destroys the socket on that error without reading it: the client got
 * a 502 instead of the service's 400. With the write dropped, undici reads the answer and the
 * end of the connection ends the request; a service that closed without answering still fails
 * the request when the connection ends (a 502 as before).
 */
export function upstreamConnector(): buildConnector.connector {
  const connect = buildConnector({});
  // Made outside any trace: a socket's events run in the context it was made in, and one
  // connection serves many requests, so undici's callbacks (and an answer ended in them, its
  // listeners) never run inside the trace of the request that happened to open it
  return (options, callback) =>
    runUntraced(() =>
      connect(options, (error, socket) => {
        if (socket) dropWritesOncePeerCloses(socket);
        // (the callback's two shapes, as undici gave them)
        (callback as (e: Error | null, s: Socket | null) => void)(error, socket);
      }),
    );
}

function dropWritesOncePeerCloses(socket: Socket): void {
  let peerGone = false;
  const write = socket._write.bind(socket);
  const writev = socket._writev?.bind(socket);
  // Node passes every write the stream's one `onwrite` callback: wrapped once, not per write
  let wrappedFor: WriteCallback | undefined;
  let wrapped: WriteCallback = () => undefined;
  const settle = (callback: WriteCallback): WriteCallback => {
    if (callback !== wrappedFor) {
      wrappedFor = callback;
      wrapped = (error) => {
        if (error && PEER_GONE.has((error as NodeJS.ErrnoException).code ?? '')) {
          peerGone = true;
          return callback();
        }
        callback(error);
      };
    }
    return wrapped;
  };
  socket._write = (chunk, encoding, callback) =>
    peerGone ? callback() : write(chunk, encoding, settle(callback));
  if (writev) {
    socket._writev = (chunks, callback) =>
      peerGone ? callback() : writev(chunks, settle(callback));
  }
}
