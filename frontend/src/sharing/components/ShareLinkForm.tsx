import type { Dispatch, FormEvent } from 'react';
import { Field } from '../../components/Field';
import { lastExpiryDay, SHARE_TEXTS, type ShareAction, type ShareState } from '../shareState';

/** The form's two choices: its field, the action that sets it, the label. */
const CHOICES = [
  { name: 'includeStories', action: 'include-stories', label: SHARE_TEXTS.includeStories },
  { name: 'allowIndexing', action: 'allow-indexing', label: SHARE_TEXTS.allowIndexing },
] as const;

/** The form of a new link: an optional expiry day and two choices, then Create link. */
export function ShareLinkForm({
  state,
  dispatch,
  today,
}: {
  state: ShareState;
  dispatch: Dispatch<ShareAction>;
  /** The user's `YYYY-MM-DD`: the first day the expiry input offers. */
  today: string;
}) {
  const creating = state.busy?.kind === 'create';
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    dispatch({ type: 'submit', today, now: Date.now() });
  };
  return (
    <form className="share-form" onSubmit={onSubmit} noValidate>
      <p className="share-empty">{SHARE_TEXTS.none}</p>
      <fieldset className="form-fieldset" disabled={creating}>
        <Field
          label={SHARE_TEXTS.expiry}
          type="date"
          name="expiresOn"
          value={state.form.expiresOn}
          min={today}
          max={lastExpiryDay(today)}
          hint={SHARE_TEXTS.expiryHint}
          onChange={(event) => dispatch({ type: 'expiry', value: event.target.value })}
        />
        {CHOICES.map(({ name, action, label }) => (
          <label key={name} className="check">
            <input
              type="checkbox"
              name={name}
              checked={state.form[name]}
              onChange={(event) => dispatch({ type: action, value: event.target.checked })}
            />
            <span>{label}</span>
          </label>
        ))}
      </fieldset>
      {state.formError ? (
        <p className="form-alert" role="alert">
          {state.formError}
        </p>
      ) : null}
      <div className="share-actions">
        <button type="submit" className="btn btn-primary" aria-disabled={creating || undefined}>
          {creating ? (
            <>
              <span className="btn-spinner" aria-hidden="true" />
              {SHARE_TEXTS.creating}
            </>
          ) : (
            SHARE_TEXTS.create
          )}
        </button>
      </div>
    </form>
  );
}
