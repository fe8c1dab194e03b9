import type { ConversationSummary } from '@wayfarer/contracts';
import { Link } from 'react-router-dom';
import { Avatar } from '../../friends/components/Avatar';
import { timeAgo } from '../../lib/timeAgo';
import { previewOf } from '../inboxState';

/**
 * The inbox's rows: the friend's picture and name, the last message's preview and time, the
 * unread count; each opens `/messages/{friendId}` with the friend in navigation state (as the
 * friends screen's Message action does).
 */
export function ConversationList({
  conversations,
  now,
}: {
  conversations: readonly ConversationSummary[];
  now: number;
}) {
  return (
    <ul className="inbox-list" aria-label="Conversations">
      {conversations.map((c) => {
        const name = c.friend.name || 'Your friend';
        return (
          <li key={c.roomId}>
            <Link
              className={`inbox-row${c.unread > 0 ? ' is-unread' : ''}`}
              to={`/messages/${encodeURIComponent(c.friend.id)}`}
              state={{
                friend: { id: c.friend.id, name: c.friend.name, picture: c.friend.picture },
              }}
              data-room={c.roomId}
            >
              <span className="avatar-slot" aria-hidden="true">
                <Avatar src={c.friend.picture} name={name} size={44} />
              </span>
              <span className="inbox-text">
                <span className="inbox-top">
                  <span className="inbox-name">{name}</span>
                  <time className="inbox-time" dateTime={c.lastMessage.timestamp}>
                    {timeAgo(c.lastMessage.timestamp, now)}
                  </time>
                </span>
                <span className="inbox-bottom">
                  <span className="inbox-preview">{previewOf(c)}</span>
                  {c.unread > 0 ? (
                    <span className="count-pill inbox-unread">
                      <span aria-hidden="true">{c.unread > 99 ? '99+' : c.unread}</span>
                      <span className="visually-hidden">{`, ${c.unread} unread`}</span>
                    </span>
                  ) : null}
                </span>
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
