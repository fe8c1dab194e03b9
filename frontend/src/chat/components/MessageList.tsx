import { useLayoutEffect, useRef } from 'react';
import { CHAT_TEXTS, type ChatMessage } from '../chatState';

interface MessageListProps {
  me: string;
  friendName: string;
  messages: readonly ChatMessage[];
  history: 'loading' | 'ready' | 'failed';
  historyError: string | null;
  canLoadMore: boolean;
  loadingMore: boolean;
  moreError: string | null;
  onLoadMore: () => void;
  onRetry: (clientId: string) => void;
}

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const dayFormat = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
});

function when(timestamp: string) {
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return { time: '', full: '' };
  return {
    time: timeFormat.format(date),
    full: `${dayFormat.format(date)}, ${timeFormat.format(date)}`,
  };
}

/**
 * The conversation area (at most 500 px high), kept scrolled to the newest
 * message when one arrives; 'Load more messages' on top puts older ones in front without moving
 * what is on screen.
 */
export function MessageList({
  me,
  friendName,
  messages,
  history,
  historyError,
  canLoadMore,
  loadingMore,
  moreError,
  onLoadMore,
  onRetry,
}: MessageListProps) {
  const area = useRef<HTMLDivElement>(null);
  const lastKey = messages.at(-1)?.key;
  const firstKey = messages[0]?.key;
  const seen = useRef<{ first?: string; last?: string; height: number }>({ height: 0 });

  useLayoutEffect(() => {
    const el = area.current;
    if (!el) return;
    const before = seen.current;
    if (lastKey !== before.last) {
      el.scrollTop = el.scrollHeight; // something new at the bottom: show it
    } else if (firstKey !== before.first) {
      el.scrollTop += el.scrollHeight - before.height; // older ones in front: stay put
    }
    seen.current = { first: firstKey, last: lastKey, height: el.scrollHeight };
  }, [firstKey, lastKey]);

  return (
    <div
      ref={area}
      className="chat-area"
      tabIndex={0}
      role="region"
      aria-label={`Conversation with ${friendName}`}
      aria-busy={history === 'loading' || loadingMore}
    >
      {canLoadMore ? (
        <div className="chat-more">
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={onLoadMore}
            disabled={loadingMore}
          >
            {CHAT_TEXTS.loadMore}
          </button>
          {moreError ? (
            <p className="chat-error" role="alert">
              {moreError}
            </p>
          ) : null}
        </div>
      ) : null}

      {history === 'failed' ? (
        <p className="chat-error chat-history-error" role="alert">
          {historyError ?? CHAT_TEXTS.historyFailed}
        </p>
      ) : null}
      {history === 'loading' && messages.length === 0 ? (
        <p className="chat-note" role="status">
          Loading messages…
        </p>
      ) : null}
      {history === 'ready' && messages.length === 0 ? (
        <p className="chat-note">{CHAT_TEXTS.empty}</p>
      ) : null}

      <ol className="chat-messages" aria-label="Messages">
        {messages.map((m) => {
          const mine = m.from === me;
          const { time, full } = when(m.timestamp);
          return (
            <li
              key={m.key}
              className={`chat-message ${mine ? 'is-mine' : 'is-theirs'} is-${m.status}`}
              data-status={m.status}
            >
              <span className="visually-hidden">{mine ? 'You' : friendName}: </span>
              <p className="chat-text">{m.text}</p>
              <span className="chat-meta">
                {m.status === 'pending' ? (
                  <span>{CHAT_TEXTS.sending}</span>
                ) : m.status === 'failed' ? (
                  <>
                    <span className="chat-failed" title={m.error ?? undefined}>
                      {CHAT_TEXTS.notSent}
                      {m.error ? `: ${m.error}` : ''}
                    </span>
                    <button
                      type="button"
                      className="btn-link chat-retry"
                      onClick={() => m.clientId && onRetry(m.clientId)}
                    >
                      Retry
                    </button>
                  </>
                ) : (
                  <time dateTime={m.timestamp} title={full}>
                    {time}
                  </time>
                )}
              </span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
