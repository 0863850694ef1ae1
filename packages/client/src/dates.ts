// Calendar dates as the API writes them: `yyyy-MM-dd`.
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** Whether `value` is a real calendar date written `yyyy-MM-dd` (not 2023-02-29, nor 2024-13-01). */
export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string' || !DATE_RE.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return time === time && new Date(time).toISOString().startsWith(value);
}

/** `yyyy-MM-dd` of a Date (UTC) or of a checked date string; throws on anything else. */
export function toIsoDate(value: string | Date, what: string): string {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new TypeError(`${what}: the Date is invalid`);
    return value.toISOString().slice(0, 10);
  }
  if (!isIsoDate(value)) {
    throw new TypeError(`${what}: ${JSON.stringify(value)} is not a calendar date written yyyy-MM-dd`);
  }
  return value;
}
