import {
  ShareLimits,
  ShareMessages,
  SharePaths,
  type ShareLink,
  type ShareLinkInput,
} from '@wayfarer/contracts';

/**
 * The owner's share panel of a trip, free of React so its rules are unit tested:
 *
 * - it loads the trip's live link (`GET /api/trips/{id}/share`: a link, or none on 404);
 * - without one it offers a form: an optional expiry day and two choices (the stories and
 *   journals shown, search engines allowed), checked as the trips service checks them (in the
 *   future, within `ShareLimits.maxExpiryDays`) before `POST /api/trips/{id}/share`;
 * - with one it shows the full URL (origin + `url`) to copy, when it expires and what it shows;
 *   Revoke asks first, then `DELETE`s it, and the form is offered again;
 * - one request at a time (`busy`): a second click meanwhile does nothing; a failure keeps the
 *   form as it was and says why.
 */

export interface ShareForm {
  /** `YYYY-MM-DD`, the last day the link works; '' for no expiry. */
  expiresOn: string;
  includeStories: boolean;
  allowIndexing: boolean;
}

export type ShareLoad =
  { status: 'loading' } | { status: 'ready' } | { status: 'failed'; message: string };

export interface ShareState {
  load: ShareLoad;
  /** The trip's live link, or null when it has none. */
  link: ShareLink | null;
  form: ShareForm;
  /** Why the form was not sent, or why the create failed. */
  formError: string | null;
  /** The request under way: a create (its run number, a new one per accepted submit) or the revoke. */
  busy: null | { kind: 'create'; run: number } | { kind: 'revoke' };
  /** Creates started so far. */
  runs: number;
  /** The revoke question is open. */
  confirmingRevoke: boolean;
  revokeError: string | null;
  /** The Copy button's outcome, until the link changes. */
  copy: 'idle' | 'copied' | 'failed';
  /** Said to screen readers (created, revoked, copied). */
  announcement: string;
}

export type ShareAction =
  | { type: 'load-start' }
  | { type: 'loaded'; link: ShareLink | null }
  | { type: 'load-failed'; message: string }
  | { type: 'expiry'; value: string }
  | { type: 'include-stories'; value: boolean }
  | { type: 'allow-indexing'; value: boolean }
  /** Create: `today` is the user's `YYYY-MM-DD`, `now` the instant the expiry is checked at. */
  | { type: 'submit'; today: string; now: number }
  | { type: 'created'; link: ShareLink }
  | { type: 'create-failed'; message: string }
  | { type: 'revoke-ask' }
  | { type: 'revoke-cancel' }
  | { type: 'revoke-start' }
  | { type: 'revoked' }
  | { type: 'revoke-failed'; message: string }
  | { type: 'copied'; ok: boolean };

export const SHARE_TEXTS = {
  open: 'Share',
  title: 'Share this trip',
  intro:
    'Anyone with the link can see this trip: its name, dates, map and photos. No account needed.',
  loading: 'Loading the share link…',
  loadFailed: 'The share link could not be loaded.',
  none: 'This trip has no share link yet.',
  expiry: 'Expires on (optional)',
  expiryHint: 'The last day the link works. Leave empty to keep it until you revoke it.',
  includeStories: 'Include stories and journals',
  allowIndexing: 'Let search engines show this page',
  create: 'Create link',
  creating: 'Creating…',
  createFailed: 'The link could not be created. Please try again.',
  linkLabel: 'Share link',
  copy: 'Copy',
  copied: 'Link copied.',
  copyFailed: 'Copy failed: select the link and copy it yourself.',
  expires: (date: string) => `Expires on ${date}.`,
  noExpiry: 'Works until you revoke it.',
  showsStories: 'Shows the stories and journals.',
  hidesStories: 'Stories and journals are not shown.',
  indexed: 'Search engines may show it.',
  notIndexed: 'Hidden from search engines.',
  created: 'Share link created.',
  revoke: 'Revoke',
  revokeTitle: 'Revoke this link?',
  revokeDetail:
    'The link and its photos stop working at once for everyone who has it. A new link would have a new address.',
  revoked: ShareMessages.revoked,
  revokeFailed: 'The link could not be revoked. Please try again.',
  close: 'Close',
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;

const EMPTY_FORM: ShareForm = { expiresOn: '', includeStories: false, allowIndexing: false };

export function initialShare(): ShareState {
  return {
    load: { status: 'loading' },
    link: null,
    form: EMPTY_FORM,
    formError: null,
    busy: null,
    runs: 0,
    confirmingRevoke: false,
    revokeError: null,
    copy: 'idle',
    announcement: '',
  };
}

/** `day` (`YYYY-MM-DD`) plus `days` days, as `YYYY-MM-DD`. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/**
 * The instant a link chosen to expire on `day` stops: the end of that day where the user is
 * (the date input's day is theirs), as ISO.
 */
export function expiryInstant(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y!, m! - 1, d!, 23, 59, 59, 999).toISOString();
}

/**
 * The last day the expiry input offers: `ShareLimits.maxExpiryDays` - 1 days after today, so
 * that the end of it is within the limit from any time today.
 */
export const lastExpiryDay = (today: string) => addDays(today, ShareLimits.maxExpiryDays - 1);

/** Why the chosen expiry can't be sent (contracts' texts), or null. */
export function expiryProblem(expiresOn: string, now: number): string | null {
  if (!expiresOn) return null;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(expiresOn)) return ShareMessages.expiryInPast;
  const at = Date.parse(expiryInstant(expiresOn));
  if (Number.isNaN(at) || at <= now) return ShareMessages.expiryInPast;
  if (at - now > ShareLimits.maxExpiryDays * DAY_MS) return ShareMessages.expiryTooFar;
  return null;
}

const localDate = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
});

/** The day an expiry instant falls on where the user is (the day they chose), '' if unreadable. */
export function formatExpiry(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : localDate.format(date);
}

/** The body of `POST /api/trips/{id}/share` for the form. */
export function shareInput(form: ShareForm): ShareLinkInput {
  return {
    expiresAt: form.expiresOn ? expiryInstant(form.expiresOn) : null,
    includeStories: form.includeStories,
    allowIndexing: form.allowIndexing,
  };
}

/** The link as people copy it: this site's origin and the link's page path. */
export function fullShareUrl(link: Pick<ShareLink, 'url' | 'token'>, origin: string): string {
  const path = link.url || SharePaths.page(link.token);
  return new URL(path, origin).toString();
}

const withForm = (state: ShareState, change: Partial<ShareForm>): ShareState =>
  state.busy ? state : { ...state, form: { ...state.form, ...change }, formError: null };

export function shareReducer(state: ShareState, action: ShareAction): ShareState {
  switch (action.type) {
    case 'load-start':
      return { ...initialShare(), runs: state.runs };
    case 'loaded':
      return { ...state, load: { status: 'ready' }, link: action.link, copy: 'idle' };
    case 'load-failed':
      return { ...state, load: { status: 'failed', message: action.message } };
    case 'expiry':
      return withForm(state, { expiresOn: action.value });
    case 'include-stories':
      return withForm(state, { includeStories: action.value });
    case 'allow-indexing':
      return withForm(state, { allowIndexing: action.value });
    case 'submit': {
      if (state.busy || state.load.status !== 'ready' || state.link) return state;
      const problem = expiryProblem(state.form.expiresOn, action.now);
      if (problem) return { ...state, formError: problem };
      const run = state.runs + 1;
      return { ...state, formError: null, runs: run, busy: { kind: 'create', run } };
    }
    case 'created':
      return {
        ...state,
        busy: null,
        link: action.link,
        form: EMPTY_FORM,
        copy: 'idle',
        announcement: SHARE_TEXTS.created,
      };
    case 'create-failed':
      return { ...state, busy: null, formError: action.message };
    case 'revoke-ask':
      if (!state.link || state.busy) return state;
      return { ...state, confirmingRevoke: true, revokeError: null };
    case 'revoke-cancel':
      return state.busy?.kind === 'revoke' ? state : { ...state, confirmingRevoke: false };
    case 'revoke-start':
      if (!state.confirmingRevoke || state.busy) return state;
      return { ...state, busy: { kind: 'revoke' }, revokeError: null };
    case 'revoked':
      return {
        ...state,
        busy: null,
        link: null,
        confirmingRevoke: false,
        copy: 'idle',
        announcement: SHARE_TEXTS.revoked,
      };
    case 'revoke-failed':
      return { ...state, busy: null, revokeError: action.message };
    case 'copied':
      return {
        ...state,
        copy: action.ok ? 'copied' : 'failed',
        announcement: action.ok ? SHARE_TEXTS.copied : SHARE_TEXTS.copyFailed,
      };
  }
}
