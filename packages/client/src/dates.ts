// Calendar dates as the API writes them: `yyyy-MM-dd`.
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `value` is a real calendar date written `yyyy-MM-dd`. */
export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!));
  return d.getUTCFullYear() === +m[1]! && d.getUTCMonth() === +m[2]! - 1 && d.getUTCDate() === +m[3]!;
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
