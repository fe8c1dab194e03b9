import { useEffect } from 'react';
import { ChatIcon } from '../components/icons';
import { ConversationList } from '../inbox/components/ConversationList';
import { INBOX_TEXTS } from '../inbox/inboxState';
import { useConversations } from '../live/LiveProvider';
import { useNow } from '../lib/useNow';
import '../styles/trips.css';
import '../styles/friends.css';
import '../styles/inbox.css';
import { EmptyCard, ErrorCard } from '../components/StateCard';

/**
 * The inbox (`/messages`): the user's conversations, newest first, kept live by the
 * layout (`LiveProvider`: read on opening, updated by message pushes). A row opens the
 * conversation, which marks it read.
 */
export function Component() {
  const { load, conversations, refresh } = useConversations();
  const now = useNow();
  useEffect(() => refresh?.(), [refresh]);

  let body;
  if (load === 'loading' && conversations.length === 0) {
    body = (
      <div className="state-card" role="status">
        <span className="btn-spinner" aria-hidden="true" />
        Loading conversations…
      </div>
    );
  } else if (load === 'failed' && conversations.length === 0) {
    body = <ErrorCard message={INBOX_TEXTS.loadFailed} onRetry={refresh} />;
  } else if (conversations.length === 0) {
    body = <EmptyCard icon={<ChatIcon />} text={INBOX_TEXTS.empty} />;
  } else {
    body = <ConversationList conversations={conversations} now={now} />;
  }

  return (
    <section className="page inbox-page" aria-labelledby="page-title">
      <header className="page-header">
        <h1 id="page-title">{INBOX_TEXTS.title}</h1>
        <p className="page-subtitle">{INBOX_TEXTS.subtitle}</p>
      </header>
      {body}
    </section>
  );
}
