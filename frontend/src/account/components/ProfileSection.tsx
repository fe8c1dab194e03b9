import { AuthLimits } from '@wayfarer/contracts';
import { useEffect, useMemo, useReducer, useRef, type FormEvent } from 'react';
import { PictureField } from '../../auth/PictureField';
import { pictureProblem } from '../../auth/validation';
import { Field } from '../../components/Field';
import { failureMessage } from '../../trips/api';
import { updateProfile } from '../api';
import {
  initialSettingsForm,
  profileChanges,
  profileForm,
  SETTINGS_TEXTS,
  settingsFormReducer,
  type ProfileValues,
} from '../settingsState';
import type { UserDetails } from '../useAccount';
import { useFormSend } from '../useFormSend';
import { SectionStatus } from './SectionStatus';

const reducer = settingsFormReducer(profileForm);
const valuesOf = (user: UserDetails | null): ProfileValues => ({
  name: user?.username ?? '',
  picture: null,
  savedName: user?.username ?? '',
});

/**
 * Name and picture (`PATCH /api/userDetails`, only what changed): saved, the top bar shows the
 * new ones at once (`onSaved`).
 */
export function ProfileSection({
  user,
  onSaved,
}: {
  user: UserDetails | null;
  onSaved: (user: UserDetails) => void;
}) {
  const [state, dispatch] = useReducer(reducer, user, (u) => initialSettingsForm(valuesOf(u)));
  const nameRef = useRef<HTMLInputElement>(null);
  const pictureRef = useRef<HTMLInputElement>(null);
  const { values, errors } = state;

  // details that arrive or change elsewhere (the layout's loader) start the form again
  const saved = useMemo(() => valuesOf(user), [user]);
  useEffect(() => {
    if (saved.savedName !== state.values.savedName) dispatch({ type: 'reset', values: saved });
  }, [saved]);

  useFormSend(
    state.saving,
    dispatch,
    async () => {
      const changes = profileChanges(values);
      if (!changes) return null;
      const answer = await updateProfile(changes);
      onSaved(answer);
      if (pictureRef.current) pictureRef.current.value = '';
      return {
        notice: SETTINGS_TEXTS.profileSaved,
        values: { name: answer.username, picture: null, savedName: answer.username },
      };
    },
    (error) => ({ message: failureMessage(error, SETTINGS_TEXTS.saveFailed) }),
  );

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = profileForm.validate(values);
    dispatch({ type: 'submit' });
    if (found.name) nameRef.current?.focus();
    else if (found.picture) pictureRef.current?.focus();
  };

  return (
    <section className="form-card settings-card" aria-labelledby="settings-profile">
      <h2 className="form-card-title" id="settings-profile">
        Profile
      </h2>
      <form className="settings-form" noValidate onSubmit={onSubmit}>
        <Field
          ref={nameRef}
          label="Name"
          name="name"
          autoComplete="name"
          required
          maxLength={AuthLimits.nameMax}
          value={values.name}
          error={errors.name}
          onChange={(event) => dispatch({ type: 'set', field: 'name', value: event.target.value })}
        />
        <PictureField
          file={values.picture}
          current={user?.profilePicture}
          error={errors.picture ?? pictureProblem(values.picture)}
          inputRef={pictureRef}
          onChange={(file) => dispatch({ type: 'set', field: 'picture', value: file })}
          onRemove={() => {
            dispatch({ type: 'set', field: 'picture', value: null });
            if (pictureRef.current) {
              pictureRef.current.value = '';
              pictureRef.current.focus();
            }
          }}
        />
        <SectionStatus failure={state.failure} notice={state.notice} />
        <div className="form-actions">
          <button
            type="submit"
            className="btn btn-primary"
            aria-disabled={state.saving || undefined}
          >
            {state.saving ? (
              <>
                <span className="btn-spinner" aria-hidden="true" />
                Saving...
              </>
            ) : (
              'Save profile'
            )}
          </button>
        </div>
      </form>
    </section>
  );
}
