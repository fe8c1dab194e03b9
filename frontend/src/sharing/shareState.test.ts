import { ShareLimits, ShareMessages, type ShareLink } from '@wayfarer/contracts';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  expiryInstant,
  expiryProblem,
  fullShareUrl,
  initialShare,
  lastExpiryDay,
  SHARE_TEXTS,
  shareInput,
  shareReducer,
  type ShareAction,
  type ShareState,
} from './shareState';

const TOKEN = 'A'.repeat(43);
const link = (over: Partial<ShareLink> = {}): ShareLink => ({
  token: TOKEN,
  url: `/s/${TOKEN}`,
  createdAt: '2026-11-26T10:00:00.000Z',
  expiresAt: null,
  includeStories: false,
  allowIndexing: false,
  ...over,
});

const TODAY = '2026-11-26';
/** Noon of TODAY where the tests run. */
const NOW = new Date(2026, 10, 26, 12, 0, 0).getTime();

const run = (actions: ShareAction[], from: ShareState = initialShare()) =>
  actions.reduce(shareReducer, from);
const ready = (l: ShareLink | null = null) => run([{ type: 'loaded', link: l }]);
const submit: ShareAction = { type: 'submit', today: TODAY, now: NOW };

describe('loading the link', () => {
  it('starts loading; a trip without a link offers the form, one with a link shows it', () => {
    expect(initialShare().load).toEqual({ status: 'loading' });
    expect(ready()).toMatchObject({ load: { status: 'ready' }, link: null });
    expect(ready(link()).link?.token).toBe(TOKEN);
  });

  it('says why a load failed, and loading again starts over', () => {
    const failed = run([{ type: 'load-failed', message: 'Down.' }]);
    expect(failed.load).toEqual({ status: 'failed', message: 'Down.' });
    expect(run([{ type: 'load-start' }], failed).load).toEqual({ status: 'loading' });
  });
});

describe('creating a link', () => {
  it('sends the choices: no expiry, stories and indexing off by default', () => {
    const state = run([submit], ready());
    expect(state.busy).toEqual({ kind: 'create', run: 1 });
    expect(shareInput(state.form)).toEqual({
      expiresAt: null,
      includeStories: false,
      allowIndexing: false,
    });
  });

  it('sends the chosen expiry as the end of that day where the user is, and the two choices', () => {
    const state = run(
      [
        { type: 'expiry', value: '2026-12-31' },
        { type: 'include-stories', value: true },
        { type: 'allow-indexing', value: true },
        submit,
      ],
      ready(),
    );
    const input = shareInput(state.form);
    expect(input).toMatchObject({ includeStories: true, allowIndexing: true });
    expect(new Date(input.expiresAt!).getTime()).toBe(
      new Date(2026, 11, 31, 23, 59, 59, 999).getTime(),
    );
  });

  it('refuses an expiry in the past or beyond the limit with the service texts, and sends nothing', () => {
    const past = run([{ type: 'expiry', value: '2026-11-25' }, submit], ready());
    expect(past.formError).toBe(ShareMessages.expiryInPast);
    expect(past.busy).toBeNull();
    const far = run(
      [{ type: 'expiry', value: addDays(TODAY, ShareLimits.maxExpiryDays + 1) }, submit],
      ready(),
    );
    expect(far.formError).toBe(ShareMessages.expiryTooFar);
    expect(far.busy).toBeNull();
    // changing the day clears the message
    expect(run([{ type: 'expiry', value: '' }], far).formError).toBeNull();
  });

  it('offers today up to the last day within the limit from any time today', () => {
    expect(expiryProblem(TODAY, NOW)).toBeNull();
    const last = lastExpiryDay(TODAY);
    expect(expiryProblem(last, new Date(2026, 10, 26, 0, 0, 1).getTime())).toBeNull();
    expect(expiryProblem(addDays(last, 1), NOW)).toBe(ShareMessages.expiryTooFar);
    expect(expiryProblem('not a day', NOW)).toBe(ShareMessages.expiryInPast);
  });

  it('sends once: a second submit while sending does nothing, the form is frozen', () => {
    const sending = run([submit], ready());
    expect(run([submit], sending)).toBe(sending);
    expect(run([{ type: 'include-stories', value: true }], sending).form.includeStories).toBe(
      false,
    );
  });

  it('shows the created link and says so; a failure keeps the form and says why', () => {
    const sending = run([{ type: 'include-stories', value: true }, submit], ready());
    const created = run([{ type: 'created', link: link({ includeStories: true }) }], sending);
    expect(created).toMatchObject({ busy: null, announcement: SHARE_TEXTS.created });
    expect(created.link?.includeStories).toBe(true);
    const failed = run([{ type: 'create-failed', message: 'Nope.' }], sending);
    expect(failed).toMatchObject({ busy: null, formError: 'Nope.' });
    expect(failed.form.includeStories).toBe(true);
    // a new submit is a new run
    expect(run([submit], failed).busy).toEqual({ kind: 'create', run: 2 });
  });

  it('does not submit while loading or when a link is live', () => {
    expect(run([submit]).busy).toBeNull();
    expect(run([submit], ready(link())).busy).toBeNull();
  });
});

describe('revoking', () => {
  it('asks first; Keep closes the question, the link stays', () => {
    const asked = run([{ type: 'revoke-ask' }], ready(link()));
    expect(asked.confirmingRevoke).toBe(true);
    const kept = run([{ type: 'revoke-cancel' }], asked);
    expect(kept.confirmingRevoke).toBe(false);
    expect(kept.link).not.toBeNull();
  });

  it('revokes once confirmed; the question cannot be dismissed meanwhile; then the form again', () => {
    const revoking = run([{ type: 'revoke-ask' }, { type: 'revoke-start' }], ready(link()));
    expect(revoking.busy).toEqual({ kind: 'revoke' });
    expect(run([{ type: 'revoke-cancel' }], revoking).confirmingRevoke).toBe(true);
    expect(run([{ type: 'revoke-start' }], revoking)).toBe(revoking);
    const revoked = run([{ type: 'revoked' }], revoking);
    expect(revoked).toMatchObject({
      link: null,
      busy: null,
      confirmingRevoke: false,
      announcement: ShareMessages.revoked,
    });
  });

  it('keeps the question open with the reason when the revoke failed', () => {
    const failed = run(
      [
        { type: 'revoke-ask' },
        { type: 'revoke-start' },
        { type: 'revoke-failed', message: 'Down.' },
      ],
      ready(link()),
    );
    expect(failed).toMatchObject({ busy: null, confirmingRevoke: true, revokeError: 'Down.' });
    expect(failed.link).not.toBeNull();
  });

  it('has nothing to revoke without a link', () => {
    expect(run([{ type: 'revoke-ask' }], ready()).confirmingRevoke).toBe(false);
  });
});

describe('the link as copied', () => {
  it('is the origin and the page path', () => {
    expect(fullShareUrl(link(), 'http://127.0.0.1:18080')).toBe(
      `http://127.0.0.1:18080/s/${TOKEN}`,
    );
    expect(fullShareUrl(link({ url: '' }), 'https://wayfarer.example')).toBe(
      `https://wayfarer.example/s/${TOKEN}`,
    );
  });

  it('says whether the copy worked', () => {
    expect(run([{ type: 'copied', ok: true }], ready(link()))).toMatchObject({
      copy: 'copied',
      announcement: SHARE_TEXTS.copied,
    });
    expect(run([{ type: 'copied', ok: false }], ready(link())).copy).toBe('failed');
  });

  it('the expiry instant is the end of the chosen day', () => {
    const at = new Date(expiryInstant('2027-03-03'));
    expect([at.getFullYear(), at.getMonth(), at.getDate(), at.getHours()]).toEqual([
      2027, 2, 3, 23,
    ]);
  });
});
