/** A settings form's outcome: why it failed, or its success note (announced either way). */
export function SectionStatus({
  failure,
  notice,
}: {
  failure: string | null;
  notice: string | null;
}) {
  if (failure) {
    return (
      <p className="form-alert" role="alert">
        {failure}
      </p>
    );
  }
  return (
    <p className={notice ? 'form-success' : 'visually-hidden'} role="status">
      {notice ?? ''}
    </p>
  );
}

/** A settings form's Save: a spinner and `busyLabel` while its request is out. */
export function SaveButton({
  saving,
  label,
  busyLabel,
}: {
  saving: boolean;
  label: string;
  busyLabel: string;
}) {
  return (
    <button type="submit" className="btn btn-primary" aria-disabled={saving || undefined}>
      {saving ? (
        <>
          <span className="btn-spinner" aria-hidden="true" />
          {busyLabel}
        </>
      ) : (
        label
      )}
    </button>
  );
}
