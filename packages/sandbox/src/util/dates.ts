// The day and the HTTP date of an instant, as every answer needs them, and the calendar the
// date checks share (filters, the `date` format). The day and the HTTP date change only once a
// day or a second, and formatting a Date is one of the larger costs of a small answer, so the
// last text made is kept and given again while the instant stays in its day or second.

const DAY_MS = 86_400_000;

let lastDay = NaN;
let lastDayText = '';

/** The UTC day of `ms` (`YYYY-MM-DD`), as `new Date(ms).toISOString().slice(0, 10)`. */
export function dayOf(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  if (day !== lastDay) {
    lastDayText = new Date(ms).toISOString().slice(0, 10);
    lastDay = day;
  }
  return lastDayText;
}

let lastSecond = NaN;
let lastHttpDate = '';

/** The IMF-fixdate of `ms` (`Tue, 03 Nov 2026 10:00:00 GMT`), as `new Date(ms).toUTCString()`. */
export function httpDate(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastHttpDate = new Date(ms).toUTCString();
    lastSecond = second;
  }
  return lastHttpDate;
}

const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The days of a month (1–12) of a proleptic Gregorian year: February has 29 in a leap year. */
export function daysInMonth(year: number, month: number): number {
  return month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : DAYS_IN_MONTH[month]!;
}
