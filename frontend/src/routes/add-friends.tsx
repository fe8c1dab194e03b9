import { SocialLimits } from '@wayfarer/contracts';
import { useId, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { ArrowLeftIcon, SearchIcon } from '../components/icons';
import { SearchResults } from '../friends/components/SearchResults';
import { SEARCH_TEXTS, searchView } from '../friends/searchState';
import { useUserSearch } from '../friends/useUserSearch';
import '../styles/auth.css';
import '../styles/trips.css';
import '../styles/friends.css';

/**
 * Add friends (`/addFriends`): search people by name as you type
 * (an empty query is ignored), Add each; after Add the person shows a green check and leaves
 * the results; a pending request shows as pending. Rules live in `src/friends/searchState.ts`.
 */
export function Component() {
  const { state, type, searchNow, add } = useUserSearch();
  const id = useId();
  const view = searchView(state);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    searchNow();
  };

  let body;
  switch (view) {
    case 'hint':
      body = <p className="search-hint">{SEARCH_TEXTS.hint}</p>;
      break;
    case 'searching':
      body = (
        <p className="search-hint" role="status">
          <span className="btn-spinner" aria-hidden="true" /> Searching…
        </p>
      );
      break;
    case 'failed':
      body = (
        <div className="state-card state-card--error">
          <p role="alert">{SEARCH_TEXTS.searchFailed}</p>
          <button type="button" className="btn btn-ghost" onClick={searchNow}>
            Try again
          </button>
        </div>
      );
      break;
    case 'empty':
      body = (
        <div className="state-card">
          <span className="state-icon" aria-hidden="true">
            <SearchIcon />
          </span>
          <p className="state-text">{SEARCH_TEXTS.noResults}</p>
        </div>
      );
      break;
    case 'sent':
      body = <p className="search-hint">{SEARCH_TEXTS.sent}</p>;
      break;
    case 'results':
      body = (
        <SearchResults entries={state.results} busy={state.status === 'searching'} onAdd={add} />
      );
      break;
  }

  return (
    <section className="page add-friends-page" aria-labelledby="page-title">
      <Link to="/friends" className="back-link">
        <ArrowLeftIcon />
        Back to Friends
      </Link>
      <header className="page-header">
        <h1 id="page-title">Add Friends</h1>
        <p className="page-subtitle">Find fellow travellers by name and send them a request.</p>
      </header>
      <form className="friend-search" role="search" onSubmit={submit} noValidate>
        <label htmlFor={`${id}-q`} className="visually-hidden">
          Search people by name
        </label>
        <span className="friend-search-icon" aria-hidden="true">
          <SearchIcon />
        </span>
        <input
          id={`${id}-q`}
          className="input friend-search-input"
          type="search"
          placeholder="Search people by name"
          autoComplete="off"
          spellCheck={false}
          maxLength={SocialLimits.searchQueryMax}
          value={state.query}
          onChange={(e) => type(e.target.value)}
        />
      </form>
      <div className="friend-search-results" aria-live="polite">
        {body}
      </div>
    </section>
  );
}
