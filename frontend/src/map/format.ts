const shortDate = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

/** A date in short form (year, month, day); '' for a missing or unreadable value. */
export function formatShortDate(value: string | undefined | null): string {
  if (!value) return '';
  // A plain "YYYY-MM-DD" is a calendar day: read it as UTC so no time zone shifts it.
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  return Number.isNaN(date.getTime()) ? '' : shortDate.format(date);
}

/** "start – end", one date when both are the same day, '' when neither is known. */
export function formatDateRange(start?: string | null, end?: string | null): string {
  const from = formatShortDate(start);
  const to = formatShortDate(end);
  if (from && to) return from === to ? from : `${from} – ${to}`;
  return from || to;
}
