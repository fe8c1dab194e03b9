import { parentPort } from 'node:worker_threads';
import { xmlDraft } from '../domain/import/detect';
import { InvalidTripError } from '../domain/errors';
import { XML_WORKER_READY, type XmlAnswer, type XmlJob } from './xml-protocol';

/*
 * The worker thread of `XmlDraftPool` (xml-pool.ts): reads one GPX or KML file at a time as a
 * draft (`xmlDraft`: the DOM parse and togeojson's conversion, the import's heavy synchronous
 * step), off trips' event loop. Bundled as its own entry for the image (`workers/xml-draft.js`,
 * scripts/build/app.ts); run from this source by tsx in dev and tests.
 */

const port = parentPort;
if (!port) throw new Error('xml-draft.worker runs as a worker thread (XmlDraftPool)');

port.on('message', (job: XmlJob) => {
  let answer: XmlAnswer;
  try {
    answer = { id: job.id, draft: xmlDraft(job.bytes, job.fileName) };
  } catch (err) {
    answer =
      err instanceof InvalidTripError
        ? { id: job.id, refused: err.message }
        : { id: job.id, failed: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
  port.postMessage(answer);
});
port.postMessage(XML_WORKER_READY);
