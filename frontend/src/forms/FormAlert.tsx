/** Why a form's request failed, announced; nothing while it has not. */
export function FormAlert({ failure }: { failure: string | null }) {
  return failure ? (
    <div className="form-alert" role="alert">
      {failure}
    </div>
  ) : null;
}
