import { ChatLimits } from '@wayfarer/contracts';
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { sendableText } from '../chatState';

interface ComposerProps {
  friendName: string;
  /** False while the connection is down: the draft is kept, nothing is sent. */
  canSend: boolean;
  /** Sends the text; false when it was not sent (the draft is then kept). */
  onSend: (text: string) => boolean;
}

/** The message box: Enter sends, Shift+Enter starts a new line; blank text is never sent. */
export function Composer({ friendName, canSend, onSend }: ComposerProps) {
  const [draft, setDraft] = useState('');
  const ready = canSend && sendableText(draft) !== null;

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (!ready) return;
    if (onSend(draft)) setDraft('');
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  };

  return (
    <form className="chat-composer" onSubmit={submit}>
      <label htmlFor="chat-input" className="visually-hidden">
        Message {friendName}
      </label>
      <textarea
        id="chat-input"
        className="chat-input"
        rows={1}
        value={draft}
        maxLength={ChatLimits.textMax}
        placeholder="Write a message…"
        aria-describedby="chat-input-hint"
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <span id="chat-input-hint" className="visually-hidden">
        Enter sends, Shift+Enter starts a new line.
      </span>
      <button type="submit" className="btn btn-primary chat-send" disabled={!ready}>
        Send
      </button>
    </form>
  );
}
