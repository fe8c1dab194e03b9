import { CheckIcon, PlusIcon } from '../../components/icons';
import type { ResultEntry } from '../searchState';
import { Avatar } from './Avatar';

interface SearchResultsProps {
  entries: readonly ResultEntry[];
  busy: boolean;
  onAdd: (id: string) => void;
}

function ResultAction({ entry, onAdd }: { entry: ResultEntry; onAdd: (id: string) => void }) {
  const { user, phase } = entry;
  const name = user.name || 'this person';
  if (phase === 'added') {
    return (
      <span
        className="added-check"
        role="status"
        aria-label={entry.friends ? `You and ${name} are now friends` : `Request sent to ${name}`}
      >
        <CheckIcon />
      </span>
    );
  }
  if (user.status === 'pending') {
    return <span className="pending-badge">Pending</span>;
  }
  const adding = phase === 'adding';
  return (
    <button
      type="button"
      className="btn btn-primary btn-sm"
      aria-disabled={adding || undefined}
      aria-label={`Add ${name}`}
      onClick={() => !adding && onAdd(user._id)}
    >
      {adding ? <span className="btn-spinner" aria-hidden="true" /> : <PlusIcon />}
      Add
    </button>
  );
}

/** People found: Add each; a pending request shows as pending; added people show a green check. */
export function SearchResults({ entries, busy, onAdd }: SearchResultsProps) {
  return (
    <ul className="person-list" aria-label="Search results" aria-busy={busy || undefined}>
      {entries.map((entry) => (
        <li
          key={entry.user._id}
          className={`person-card${entry.phase === 'added' ? ' is-added' : ''}`}
        >
          <div className="person-row">
            <Avatar src={entry.user.picture} name={entry.user.name} />
            <span className="person-text">
              <span className="person-name">{entry.user.name || 'Unnamed traveller'}</span>
              {entry.user.status === 'incoming' && entry.phase !== 'added' ? (
                <span className="person-meta">asked to be your friend · Add to accept</span>
              ) : entry.user.status === 'pending' ? (
                <span className="person-meta">request sent, waiting for an answer</span>
              ) : null}
            </span>
            <span className="person-actions">
              <ResultAction entry={entry} onAdd={onAdd} />
            </span>
          </div>
          {entry.error ? (
            <p className="field-error person-error" role="alert">
              {entry.error}
            </p>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
