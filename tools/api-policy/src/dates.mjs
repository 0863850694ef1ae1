// Calendar dates as the contract writes them (yyyy-MM-dd), handled in UTC so that a date
// never shifts with the machine's time zone.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when `text` is a real calendar date written yyyy-MM-dd. */
export function isDate(text) {
  if (typeof text !== 'string') return false;
  const match = DATE.exec(text);
  if (!match) return false;
  const [, y, m, d] = match.map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** Throws a clear error unless `text` is a yyyy-MM-dd calendar date. */
export function assertDate(text, what = 'date') {
  if (!isDate(text)) throw new Error(`${what} must be a calendar date written yyyy-MM-dd, got ${JSON.stringify(text)}`);
  return text;
}

function toUtc(text) {
  const [y, m, d] = text.split('-').map(Number);
  return Date.UTC(y, m - 1, d);
}

function fromUtc(ms) {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Today's date in UTC, yyyy-MM-dd. */
export function todayUtc(now = new Date()) {
  return now.toISOString().slice(0, 10);
}

/**
 * `date` plus `months` calendar months; a day that does not exist in the target month is
 * clamped to its last day (2026-08-31 + 6 months = 2027-02-28).
 */
export function addMonths(date, months) {
  const [y, m, d] = date.split('-').map(Number);
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return fromUtc(Date.UTC(year, month, Math.min(d, last)));
}

/** `date` plus `days` days. */
export function addDays(date, days) {
  return fromUtc(toUtc(date) + days * 86_400_000);
}

/** Whole days from `from` to `to` (negative when `to` lies before `from`). */
export function daysBetween(from, to) {
  return Math.round((toUtc(to) - toUtc(from)) / 86_400_000);
}
