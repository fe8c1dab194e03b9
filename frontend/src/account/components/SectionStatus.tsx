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
