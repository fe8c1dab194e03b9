import { AuthLimits } from '@wayfarer/contracts';
import { useEffect, useMemo } from 'react';
import { PictureField } from '../../auth/PictureField';
import { pictureProblem } from '../../auth/validation';
import { Field } from '../../components/Field';
import { failureMessage } from '../../trips/api';
import { updateProfile } from '../api';
import { useForm } from '../../forms/useForm';
import { profileChanges, profileForm, SETTINGS_TEXTS, type ProfileValues } from '../settingsState';
import type { UserDetails } from '../useAccount';
import { SaveButton, SectionStatus } from './SectionStatus';

const FIELDS = ['name', 'picture'] as const;
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
  const { state, dispatch, refs, set, clearFile, bind, submit } = useForm(
    profileForm,
    FIELDS,
    valuesOf(user),
    {
      send: async (values) => {
        const changes = profileChanges(values);
        if (!changes) return null;
        const answer = await updateProfile(changes);
        onSaved(answer);
        if (refs.picture.current) refs.picture.current.value = '';
        return {
          notice: SETTINGS_TEXTS.profileSaved,
          values: { name: answer.username, picture: null, savedName: answer.username },
        };
      },
      failure: (error) => ({ message: failureMessage(error, SETTINGS_TEXTS.saveFailed) }),
      logAs: 'save the settings',
    },
  );
  const { values, errors } = state;

  // details that arrive or change elsewhere (the layout's loader) start the form again
  const saved = useMemo(() => valuesOf(user), [user]);
  useEffect(() => {
    if (saved.savedName !== state.values.savedName) dispatch({ type: 'reset', values: saved });
  }, [saved]);

  return (
    <section className="form-card settings-card" aria-labelledby="settings-profile">
      <h2 className="form-card-title" id="settings-profile">
        Profile
      </h2>
      <form className="settings-form" noValidate onSubmit={submit}>
        <Field
          {...bind('name')}
          label="Name"
          autoComplete="name"
          required
          maxLength={AuthLimits.nameMax}
        />
        <PictureField
          file={values.picture}
          current={user?.profilePicture}
          error={errors.picture ?? pictureProblem(values.picture)}
          inputRef={refs.picture}
          onChange={(file) => set('picture', file)}
          onRemove={() => clearFile('picture')}
        />
        <SectionStatus failure={state.failure} notice={state.notice} />
        <div className="form-actions">
          <SaveButton saving={state.saving} busyLabel="Saving..." label="Save profile" />
        </div>
      </form>
    </section>
  );
}
