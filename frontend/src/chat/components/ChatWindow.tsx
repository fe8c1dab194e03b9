import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { ArrowLeftIcon } from '../../components/icons';
import { Avatar } from '../../friends/components/Avatar';
import { useLive } from '../../live/LiveProvider';
import { CHAT_TEXTS } from '../chatState';
import { useChat } from '../useChat';
import { Composer } from './Composer';
import { MessageList } from './MessageList';

export interface ChatFriend {
  id: string;
  name: string;
  picture?: string | null;
}

/** Says the friend's newest message out loud once it arrives (not the history on opening). */
function useAnnouncement(
  me: string,
  friendName: string,
  ready: boolean,
  last: { key: string; from: string; text: string } | undefined,
) {
  const [text, setText] = useState('');
  const seen = useRef<string | undefined>(undefined);
  const primed = useRef(false);
  useEffect(() => {
    if (!ready) return;
    if (!primed.current) {
      primed.current = true;
      seen.current = last?.key;
      return;
    }
    if (!last || last.key === seen.current) return;
    seen.current = last.key;
    if (last.from !== me) setText(`${friendName}: ${last.text}`);
  }, [ready, last, me, friendName]);
  return text;
}

/** The chat with one friend: header, connection state, the conversation, the message box. */
export function ChatWindow({ me, friend }: { me: string; friend: ChatFriend }) {
  const name = friend.name || 'Your friend';
  const chat = useChat(me, friend.id);
  const { state } = chat;
  const last = state.messages.at(-1);
  const announcement = useAnnouncement(me, name, state.history !== 'loading', last);
  // open: the conversation is read (the inbox's count, its message notifications), and again
  // with each message of the friend's that arrives while it is open
  const conversationRead = useLive()?.conversationRead;
  const friendsLast = state.messages.findLast((m) => m.from === friend.id)?.key;
  useEffect(() => {
    conversationRead?.(chat.roomId);
  }, [conversationRead, chat.roomId, friendsLast]);

  let banner = null;
  if (state.connection === 'reconnecting') {
    banner = (
      <p className="chat-banner is-reconnecting" role="status">
        <span className="chat-dot" aria-hidden="true" />
        {CHAT_TEXTS.reconnecting}
      </p>
    );
  } else if (state.connection === 'offline') {
    banner = (
      <div className="chat-banner is-offline" role="alert">
        <span>
          {CHAT_TEXTS.offline}
          {state.connectionError ? ` ${state.connectionError}` : ''}
        </span>
        <button type="button" className="btn-link" onClick={chat.reconnect}>
          Try again
        </button>
      </div>
    );
  }

  return (
    <section className="page chat-page" aria-labelledby="page-title">
      <Link to="/friends" className="back-link">
        <ArrowLeftIcon />
        Back to Friends
      </Link>
      <header className="chat-header">
        <Avatar src={friend.picture} name={name} size={48} />
        <div className="chat-title">
          <h1 id="page-title">{name}</h1>
          <p className={`chat-presence is-${state.connection}`}>
            {state.connection === 'connected'
              ? 'Connected'
              : state.connection === 'connecting'
                ? 'Connecting…'
                : state.connection === 'reconnecting'
                  ? 'Reconnecting…'
                  : 'Offline'}
          </p>
        </div>
      </header>

      <div className="chat-panel" data-connection={state.connection}>
        {banner}
        <MessageList
          me={me}
          friendName={name}
          messages={state.messages}
          history={state.history}
          historyError={state.historyError}
          canLoadMore={state.history === 'ready' && state.cursor !== null}
          loadingMore={state.loadingMore}
          moreError={state.moreError}
          onLoadMore={chat.loadMore}
          onRetry={chat.retry}
        />
        <Composer friendName={name} canSend={state.connection === 'connected'} onSend={chat.send} />
      </div>
      <p className="visually-hidden" aria-live="polite" aria-atomic="true">
        {announcement}
      </p>
    </section>
  );
}
