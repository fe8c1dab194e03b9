import {
  createRef,
  useEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
  type ChangeEvent,
  type Dispatch,
  type FormEvent,
  type RefObject,
} from 'react';
import {
  firstWithError,
  formReducer,
  initialForm,
  isDone,
  type FormAction,
  type FormRules,
  type FormState,
} from './formState';

/** What a form's request ended with: the note to show and the values to start from. */
export interface Sent<V> {
  notice: string;
  values: V;
}

/** How a form sends: its request, and what a failure says (a message, maybe about one field). */
export interface FormSend<V> {
  /** The request of the values saved; null: nothing to say (the screen is being left). */
  send: (values: V) => Promise<Sent<V> | null>;
  failure: (error: unknown) => { message: string; field?: keyof V & string };
  /** Logged with a failure ('Failed to save the settings'); none: not logged. */
  logAs?: string;
}

/**
 * Runs `send` each time the form's reducer starts a request (`saving` turns true): its answer
 * goes to `saved`, a failure to `failed`. A request still under way when the screen is left is
 * not answered to the form.
 */
export function useFormSend<V>(
  state: FormState<V>,
  dispatch: Dispatch<FormAction<V>>,
  how: FormSend<V>,
): void {
  const latest = useRef({ how, values: state.values });
  latest.current = { how, values: state.values };
  const { saving } = state;
  useEffect(() => {
    if (!saving) return;
    let live = true;
    const {
      how: { send, failure, logAs },
      values,
    } = latest.current;
    send(values).then(
      (sent) => {
        if (live && sent) dispatch({ type: 'saved', ...sent });
      },
      (error: unknown) => {
        if (!live) return;
        if (logAs) console.error(`Failed to ${logAs}`, error);
        dispatch({ type: 'failed', ...failure(error) });
      },
    );
    return () => {
      live = false;
    };
  }, [saving, dispatch]);
}

export type FieldRefs<V> = Record<keyof V & string, RefObject<HTMLInputElement | null>>;

/** The fields of `V` that hold text (an input's value). */
export type TextField<V> = {
  [K in keyof V & string]: V[K] extends string ? K : never;
}[keyof V & string];

/** What a text input of the form takes: its ref, name, value, message and change. */
export interface FieldBinding {
  ref: RefObject<HTMLInputElement | null>;
  name: string;
  value: string;
  error: string | undefined;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}

export interface Form<V> {
  state: FormState<V>;
  dispatch: Dispatch<FormAction<V>>;
  /** Each field's input, focused when Save finds it wrong. */
  refs: FieldRefs<V>;
  set: <K extends keyof V>(field: K, value: V[K]) => void;
  /** Empties a file field: its value, its input (so the same file can be chosen again), focused. */
  clearFile: (field: keyof V & string) => void;
  /** A text field's props for `<Field>` (its `name` is the field's). */
  bind: (field: TextField<V>) => FieldBinding;
  /** The form's `onSubmit`: checks, focuses the first wrong field, or sends (or asks). */
  submit: (event: FormEvent<HTMLFormElement>) => void;
}

/**
 * A form on its reducer (`formState`): `rules` a module constant, `fields` its inputs in the
 * order they are shown, `initial` the values to start from (read once).
 */
export function useForm<V>(
  rules: FormRules<V>,
  fields: readonly (keyof V & string)[],
  initial: V,
  how: FormSend<V>,
): Form<V> {
  const reducer = useMemo(() => formReducer(rules), [rules]);
  const [state, dispatch] = useReducer(reducer, initial, initialForm<V>);
  const [refs] = useState(
    () => Object.fromEntries(fields.map((f) => [f, createRef<HTMLInputElement>()])) as FieldRefs<V>,
  );
  useFormSend(state, dispatch, how);

  const set = <K extends keyof V>(field: K, value: V[K]) =>
    dispatch({ type: 'set', field, value } as FormAction<V>);

  const bind = (field: TextField<V>): FieldBinding => ({
    ref: refs[field],
    name: field,
    value: state.values[field] as string,
    error: state.errors[field],
    onChange: (event) => set(field, event.target.value as V[TextField<V>]),
  });

  const clearFile = (field: keyof V & string) => {
    set(field, null as V[keyof V & string]);
    const input = refs[field].current;
    if (input) {
      input.value = '';
      input.focus();
    }
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (state.saving || isDone(rules, state)) return;
    const first = firstWithError(rules.validate(state.values), fields);
    dispatch({ type: 'submit' });
    if (first) refs[first].current?.focus();
  };

  return { state, dispatch, refs, set, clearFile, bind, submit };
}
