import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ImportMessages } from '@wayfarer/contracts';
import type { Logger } from '@wayfarer/service-kit';
import type { ImportDraft } from '../domain/import/draft';
import { InvalidTripError } from '../domain/errors';
import { XML_WORKER_READY, type XmlAnswer, type XmlJob } from './xml-protocol';

/** What reads an imported GPX or KML file as a draft (the import's use case takes this). */
export interface XmlDrafts {
  draft(bytes: Uint8Array, fileName: string): Promise<ImportDraft>;
}

export interface XmlDraftPoolOptions {
  /** How long one file's parse may take in the thread before it is stopped (a 400). */
  timeoutMs: number;
  /** The thread's heap (V8's old generation), MB: a parse needing more is stopped (a 400). */
  heapMb?: number;
  logger: Logger;
}

/**
 * A 4 MiB GPX or KML takes some 250 MB as a DOM (contracts' `ImportLimits.xmlMaxBytes`); twice
 * that leaves room for togeojson's output and the garbage of the parse.
 */
export const XML_WORKER_HEAP_MB = 512;

interface Job {
  bytes: Uint8Array;
  fileName: string;
  resolve: (draft: ImportDraft) => void;
  reject: (err: Error) => void;
}

/**
 * The import's XML parse (`domain/import/detect.ts` `xmlDraft`) in one worker thread
 * (xml-draft.worker.ts), so that trips' event loop keeps answering while a 4 MiB file is read
 * (seconds of CPU). One file at a time, the others queued in order; the thread's heap is capped
 * (`heapMb`) and a file not read within `timeoutMs` has its thread terminated. Either is a 400
 * (`ImportMessages.xmlTooHeavy`); a refusal inside the thread (not well-formed, a DOCTYPE...)
 * keeps its own text; a thread that fails otherwise or dies is a 500. The thread starts with
 * the first file, stays for the next (unref'd: it never keeps the process up), and a new one
 * is started for the next file after one was stopped or died.
 */
export class XmlDraftPool implements XmlDrafts {
  private readonly queue: Job[] = [];
  private worker: { thread: Worker; ready: Promise<void> } | null = null;
  private running: { id: number; job: Job; timer?: NodeJS.Timeout } | null = null;
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: XmlDraftPoolOptions) {}

  draft(bytes: Uint8Array, fileName: string): Promise<ImportDraft> {
    if (this.closed) return Promise.reject(new Error('the XML worker pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ bytes, fileName, resolve, reject });
      this.next();
    });
  }

  /** Stops the thread; files still queued or being read fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('the XML worker pool closed'));
    const worker = this.worker;
    this.worker = null;
    this.finish(new Error('the XML worker pool closed'));
    if (worker) await worker.thread.terminate();
  }

  private next(): void {
    if (this.running || this.closed) return;
    const job = this.queue.shift();
    if (!job) return;
    const id = this.nextId++;
    const running: { id: number; job: Job; timer?: NodeJS.Timeout } = { id, job };
    this.running = running;
    const worker = (this.worker ??= this.start());
    void worker.ready.then(() => {
      if (this.running !== running) return;
      running.timer = setTimeout(() => {
        this.options.logger.warn(
          { fileName: job.fileName, bytes: job.bytes.length, timeoutMs: this.options.timeoutMs },
          'an imported XML file took too long to read: its worker thread is stopped',
        );
        this.stop(worker.thread, new InvalidTripError(ImportMessages.xmlTooHeavy));
      }, this.options.timeoutMs);
      const message: XmlJob = { id, bytes: job.bytes, fileName: job.fileName };
      worker.thread.postMessage(message);
    });
  }

  private start(): { thread: Worker; ready: Promise<void> } {
    const { file, execArgv } = workerEntry();
    const thread = new Worker(file, {
      execArgv,
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb ?? XML_WORKER_HEAP_MB },
    });
    thread.unref();
    let onReady!: () => void;
    const ready = new Promise<void>((resolve) => (onReady = resolve));
    thread.on('message', (message: XmlAnswer | typeof XML_WORKER_READY) => {
      if (message === XML_WORKER_READY) return onReady();
      if (this.running?.id !== message.id) return;
      if ('draft' in message) this.finish(null, message.draft);
      else if ('refused' in message) this.finish(new InvalidTripError(message.refused));
      else this.finish(new Error(`the XML worker failed: ${message.failed}`));
    });
    thread.on('error', (err: Error & { code?: string }) => {
      const heavy = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.options.logger[heavy ? 'warn' : 'error'](
        { err, fileName: this.running?.job.fileName },
        heavy
          ? 'an imported XML file took more memory than its worker thread has: it is stopped'
          : 'the XML worker thread failed',
      );
      this.stop(thread, heavy ? new InvalidTripError(ImportMessages.xmlTooHeavy) : err);
    });
    thread.on('exit', (code) => {
      this.stop(thread, new Error(`the XML worker thread exited (code ${code})`));
    });
    return { thread, ready };
  }

  /** Fails the file being read with `err` and drops `thread` (the next file starts another). */
  private stop(thread: Worker, err: Error): void {
    if (this.worker?.thread !== thread) return;
    this.worker = null;
    void thread.terminate();
    this.finish(err);
  }

  /** Settles the file being read, then starts the next one. */
  private finish(err: Error | null, draft?: ImportDraft): void {
    const running = this.running;
    if (!running) return;
    this.running = null;
    clearTimeout(running.timer);
    if (err) running.job.reject(err);
    else running.job.resolve(draft!);
    this.next();
  }
}

/**
 * The worker's entry: in the built app (scripts/build/app.ts) the bundle `workers/xml-draft.js`
 * at the app's root (the folder of its package.json, above this module's bundle or chunk), run
 * with the app's source maps; from the sources (dev, tests) `xml-draft.worker.ts` beside this
 * file, run through tsx.
 */
function workerEntry(): { file: URL | string; execArgv: string[] } {
  if (import.meta.url.endsWith('.ts')) {
    return {
      file: new URL('./xml-draft.worker.ts', import.meta.url),
      execArgv: ['--import', 'tsx'],
    };
  }
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return {
    file: join(dir, 'workers', 'xml-draft.js'),
    execArgv: process.execArgv.filter((arg) => arg === '--enable-source-maps'),
  };
}
