import type { ImportDraft } from '../domain/import/draft';

/*
 * The messages between `XmlDraftPool` (xml-pool.ts) and its worker thread
 * (xml-draft.worker.ts).
 */

/** One file to read: its bytes (copied to the thread) and the client's file name. */
export interface XmlJob {
  id: number;
  bytes: Uint8Array;
  fileName: string;
}

/** The answer to a job: its draft, the refusal's text (a 400), or an unexpected failure. */
export type XmlAnswer =
  | { id: number; draft: ImportDraft }
  | { id: number; refused: string }
  | { id: number; failed: string };

/** Posted by the thread once its modules are loaded (the pool's timeout counts from a job). */
export const XML_WORKER_READY = 'ready';
