import { ChatMessages } from '@wayfarer/contracts';

/*
 * What chat refuses, as an error of its own carrying the message the client is shown: a socket
 * event acks `{ ok: false, error: message }`, and routes/errors.ts says what each kind is in
 * HTTP. Nothing here knows about status codes.
 */

/** `invalid`: malformed input; `forbidden`: not the caller's to see or do; `not_found`. */
export type RefusalKind = 'invalid' | 'forbidden' | 'not_found';

export class ChatRefusedError extends Error {
  override readonly name = 'ChatRefusedError';

  constructor(
    readonly kind: RefusalKind,
    message: string,
  ) {
    super(message);
  }
}

/** A room check's refusal (`roomOfCaller`): a malformed room id, or a room without the caller. */
export const roomRefused = (error: string): ChatRefusedError =>
  new ChatRefusedError(error === ChatMessages.badRoom ? 'invalid' : 'forbidden', error);
