import { CheckIcon, CloseSmallIcon } from '../../components/icons';
import type { RequestEntry } from '../friendsState';
import { Avatar } from './Avatar';

interface RequestListProps {
  entries: readonly RequestEntry[];
  onAccept: (id: string) => void;
  onDecline: (id: string) => void;
}

/** Friend requests addressed to the user, each with Accept and Decline. */
export function RequestList({ entries, onAccept, onDecline }: RequestListProps) {
  return (
    <ul className="person-list" aria-label="Friend requests">
      {entries.map(({ request, busy, error }) => {
        const name = request.name || 'Someone';
        return (
          <li
            key={request._id}
            className="person-card person-card--request"
            aria-busy={busy ? true : undefined}
          >
            <div className="person-row">
              <Avatar src={request.picture} name={request.name} />
              <span className="person-text">
                <span className="person-name">{name}</span>
                <span className="person-meta">wants to be your friend</span>
              </span>
              <span className="person-actions">
                <button
                  type="button"
                  className="btn btn-primary btn-sm"
                  aria-disabled={busy ? true : undefined}
                  aria-label={`Accept ${name}`}
                  onClick={() => !busy && onAccept(request._id)}
                >
                  {busy === 'accept' ? (
                    <span className="btn-spinner" aria-hidden="true" />
                  ) : (
                    <CheckIcon />
                  )}
                  Accept
                </button>
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  aria-disabled={busy ? true : undefined}
                  aria-label={`Decline ${name}`}
                  onClick={() => !busy && onDecline(request._id)}
                >
                  {busy === 'decline' ? (
                    <span className="btn-spinner" aria-hidden="true" />
                  ) : (
                    <CloseSmallIcon />
                  )}
                  Decline
                </button>
              </span>
            </div>
            {error ? (
              <p className="field-error person-error" role="alert">
                {error}
              </p>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
