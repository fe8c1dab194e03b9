/**
 * One form's state, free of React so its rules are unit tested: the login and register forms
 * and the settings sections (profile, password, closing the account) are the same small
 * machine. Values; the message of each field (checked again on each change once Save was
 * tried, the first message per field); one request at a time; a failure that keeps what was
 * typed; a success note. What differs between forms is said by its `FormRules`.
 */

export type Errors<V> = Partial<Record<keyof V & string, string>>;

export interface FormState<V> {
  values: V;
  errors: Errors<V>;
  /** Save was tried: the fields are checked again as they change. */
  attempted: boolean;
  /** The question before sending is open (closing the account). */
  confirming: boolean;
  saving: boolean;
  /** Why the last request failed (not about one field). */
  failure: string | null;
  /** The last request's success note. */
  notice: string | null;
}

export type FormAction<V> =
  | { [K in keyof V]: { type: 'set'; field: K; value: V[K] } }[keyof V]
  /** New values to start from (the user's details arrived or changed). */
  | { type: 'reset'; values: V }
  | { type: 'submit' }
  | { type: 'confirm' }
  | { type: 'cancel' }
  | { type: 'saved'; notice: string; values: V }
  /** `field`: the message is about one field (a wrong password). */
  | { type: 'failed'; message: string; field?: keyof V & string };

export interface FormRules<V> {
  validate: (values: V) => Errors<V>;
  /** Save asks first (`confirming`); `confirm` sends. */
  confirm?: boolean;
  /**
   * The fields stay editable while the request is out, and a failure stays said until the next
   * request is sent (login and register: their success leaves the screen). Otherwise the form
   * is locked while saving and a new Save clears the failure.
   */
  editableWhileSaving?: boolean;
  /** A success ends the form: its note stays and nothing more is sent (register moves on). */
  once?: boolean;
}

export function initialForm<V>(values: V): FormState<V> {
  return {
    values,
    errors: {},
    attempted: false,
    confirming: false,
    saving: false,
    failure: null,
    notice: null,
  };
}

export const hasErrors = <V>(errors: Errors<V>): boolean => Object.values(errors).some(Boolean);

/** Whether the form is done: a `once` form that succeeded. */
export const isDone = <V>(rules: FormRules<V>, state: FormState<V>): boolean =>
  Boolean(rules.once && state.notice !== null);

/** The reducer of one form with its rules. */
export function formReducer<V>(rules: FormRules<V>) {
  return (state: FormState<V>, action: FormAction<V>): FormState<V> => {
    switch (action.type) {
      case 'set': {
        if (state.saving && !rules.editableWhileSaving) return state;
        const values = { ...state.values, [action.field]: action.value };
        return {
          ...state,
          values,
          errors: state.attempted ? rules.validate(values) : {},
          notice: isDone(rules, state) ? state.notice : null,
        };
      }
      case 'reset':
        return state.saving ? state : initialForm(action.values);
      case 'submit': {
        if (state.saving || state.confirming || isDone(rules, state)) return state;
        const errors = rules.validate(state.values);
        const failure = rules.editableWhileSaving ? {} : { failure: null };
        if (hasErrors(errors))
          return { ...state, errors, attempted: true, ...failure, notice: null };
        return {
          ...state,
          errors,
          attempted: true,
          failure: null,
          notice: null,
          ...(rules.confirm ? { confirming: true } : { saving: true }),
        };
      }
      case 'confirm':
        return state.confirming && !state.saving ? { ...state, saving: true } : state;
      case 'cancel':
        return state.saving ? state : { ...state, confirming: false };
      case 'saved':
        if (rules.once) return { ...state, saving: false, notice: action.notice };
        return { ...initialForm(action.values), notice: action.notice };
      case 'failed':
        return {
          ...state,
          saving: false,
          confirming: false,
          ...(action.field
            ? { errors: { ...state.errors, [action.field]: action.message }, failure: null }
            : { failure: action.message }),
        };
    }
  };
}

/** The first message per field of a failed parse. */
export function issuesByField<V>(
  issues: readonly { path: PropertyKey[]; message: string }[],
): Errors<V> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '');
    errors[field] ??= issue.message;
  }
  return errors as Errors<V>;
}

/** The first of `fields` (in the form's order) that has a message. */
export function firstWithError<V>(
  errors: Errors<V>,
  fields: readonly (keyof V & string)[],
): (keyof V & string) | undefined {
  return fields.find((field) => errors[field]);
}
