import { describe, expect, it } from 'vitest';
import type { SearchUser } from './api';
import {
  SEARCH_TEXTS,
  initialSearchState,
  searchReducer,
  searchView,
  type SearchAction,
  type SearchState,
} from './searchState';

const user = (id: string, status: SearchUser['status'] = 'none'): SearchUser => ({
  _id: id,
  name: `User ${id}`,
  picture: '',
  status,
});

const run = (actions: SearchAction[], from: SearchState = initialSearchState) =>
  actions.reduce(searchReducer, from);

const found = (users: SearchUser[]) =>
  run([
    { type: 'type', query: 'ann' },
    { type: 'search-start', seq: 1, query: 'ann' },
    { type: 'results', seq: 1, users },
  ]);

describe('add friends search state', () => {
  it('an empty or blank query is ignored: no search starts, shown results go', () => {
    const blank = run([{ type: 'type', query: '   ' }]);
    expect(searchView(blank)).toBe('hint');
    expect(run([{ type: 'search-start', seq: 1, query: '  ' }], blank)).toBe(blank);

    const s = found([user('a')]);
    const cleared = run([{ type: 'type', query: '' }], s);
    expect(cleared.results).toEqual([]);
    expect(searchView(cleared)).toBe('hint');
    // the answer of the search asked before clearing is dropped
    expect(run([{ type: 'results', seq: 1, users: [user('a')] }], cleared)).toBe(cleared);
  });

  it('only the latest search is shown; no match says so', () => {
    const s = run([
      { type: 'type', query: 'an' },
      { type: 'search-start', seq: 1, query: 'an' },
      { type: 'type', query: 'ann ' },
      { type: 'search-start', seq: 2, query: 'ann ' },
      { type: 'results', seq: 2, users: [] },
      { type: 'results', seq: 1, users: [user('late')] },
    ]);
    expect(s.searched).toBe('ann');
    expect(s.results).toEqual([]);
    expect(searchView(s)).toBe('empty');
    expect(SEARCH_TEXTS.noResults).toBe('No results, try searching for a different name.');
    expect(
      searchView(
        run(
          [{ type: 'search-failed', seq: 2 }],
          run([{ type: 'search-start', seq: 2, query: 'x' }]),
        ),
      ),
    ).toBe('failed');
  });

  it('Add shows a green check, then the person leaves the results', () => {
    const s = found([user('a'), user('b')]);
    const adding = run([{ type: 'add-start', id: 'a' }], s);
    expect(adding.results[0]!.phase).toBe('adding');
    const added = run([{ type: 'added', id: 'a' }], adding);
    expect(added.results[0]!.phase).toBe('added');
    const left = run([{ type: 'leave', id: 'a' }], added);
    expect(left.results.map((e) => e.user._id)).toEqual(['b']);
    const allGone = run(
      [
        { type: 'add-start', id: 'b' },
        { type: 'added', id: 'b', friends: true },
        { type: 'leave', id: 'b' },
      ],
      left,
    );
    expect(searchView(allGone)).toBe('sent');
  });

  it('a pending request cannot be added again; a failed Add shows why and can be retried', () => {
    const s = found([user('p', 'pending'), user('a')]);
    expect(run([{ type: 'add-start', id: 'p' }], s)).toBe(s);
    const failed = run(
      [
        { type: 'add-start', id: 'a' },
        { type: 'add-failed', id: 'a', message: 'User not found.' },
      ],
      s,
    );
    expect(failed.results[1]).toMatchObject({ phase: 'failed', error: 'User not found.' });
    expect(run([{ type: 'add-start', id: 'a' }], failed).results[1]).toMatchObject({
      phase: 'adding',
      error: null,
    });
    expect(run([{ type: 'leave', id: 'a' }], failed)).toBe(failed); // only added people leave
  });

  it('a new answer keeps people being added as they are', () => {
    const s = run(
      [
        { type: 'add-start', id: 'a' },
        { type: 'type', query: 'anne' },
        { type: 'search-start', seq: 2, query: 'anne' },
      ],
      found([user('a')]),
    );
    const next = run([{ type: 'results', seq: 2, users: [user('a'), user('c')] }], s);
    expect(next.results.map((e) => [e.user._id, e.phase])).toEqual([
      ['a', 'adding'],
      ['c', 'idle'],
    ]);
  });
});
