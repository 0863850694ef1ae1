// The computed and checked parts of a person (contract §2.7): the citizen service number's
// 11-test, the formatted name, the AOW date, the self-service status. Used by the employee and
// employment handlers at write time and by the people seed, so stored and seeded data agree.
import type { IsoDate } from './date-chain.js';

/** Exactly 9 digits and the 11-test: 9·d1 + 8·d2 + … + 2·d8 − 1·d9 is divisible by 11 (and not 0). */
export function isValidCitizenServiceNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += (9 - i) * Number(value[i]);
  sum -= Number(value[8]);
  return sum !== 0 && sum % 11 === 0;
}

type Metadata = { key: number | string; value?: string } | null | undefined;

export interface NameParts {
  firstName?: string | null;
  initials?: string | null;
  prefix?: string | null;
  lastName?: string | null;
  prefixPartner?: string | null;
  lastNamePartner?: string | null;
  howToFormatLastName?: Metadata;
}

const joined = (...parts: (string | null | undefined)[]): string => parts.filter((p) => p && p.trim() !== '').join(' ');

/**
 * The last name as the person uses it (howToFormatLastName, the Dutch "naamgebruik"):
 * key 1 own name, 2 partner's name, 3 partner's name then own name, 4 own name then partner's
 * name; without a partner name (or another key) the own name.
 */
export function fullLastName(p: NameParts): string {
  const own = joined(p.prefix, p.lastName);
  const partner = joined(p.prefixPartner, p.lastNamePartner);
  if (!p.lastNamePartner) return own;
  switch (Number(p.howToFormatLastName?.key)) {
    case 2:
      return partner;
    case 3:
      return `${partner}-${own}`;
    case 4:
      return `${own}-${partner}`;
    default:
      return own;
  }
}

/** Initials (or the first name when there are none) followed by the last name in use. */
export function formattedName(p: NameParts): string {
  return joined(p.initials || p.firstName, fullLastName(p));
}

/**
 * The statutory AOW age (Algemene Ouderdomswet, art. 7a) by calendar year, as [year, years,
 * months]: 65 until 2012, then the steps the law fixed, 67 from 2024 and 67 years and 3 months
 * from 2028 (the latest year the law has fixed; later years keep it until the law sets more).
 */
const AOW_AGE_BY_YEAR: ReadonlyArray<readonly [number, number, number]> = [
  [2012, 65, 0],
  [2013, 65, 1],
  [2014, 65, 2],
  [2015, 65, 3],
  [2016, 65, 6],
  [2017, 65, 9],
  [2018, 66, 0],
  [2019, 66, 4],
  [2020, 66, 4],
  [2021, 66, 4],
  [2022, 66, 7],
  [2023, 66, 10],
  [2024, 67, 0],
  [2025, 67, 0],
  [2026, 67, 0],
  [2027, 67, 0],
  [2028, 67, 3],
];

function addMonths(date: IsoDate, months: number): IsoDate {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(Math.min(d, lastDay)).padStart(2, '0')}`;
}

/**
 * The day the person reaches the AOW age: the first calendar year in which the person has
 * reached that year's statutory age gives the age; the AOW date is the birth date plus it.
 * Not clock-based: it depends on the date of birth only.
 */
export function aowDate(dateOfBirth: IsoDate): IsoDate {
  const [y, m] = dateOfBirth.split('-').map(Number) as [number, number];
  for (const [year, years, months] of AOW_AGE_BY_YEAR) {
    // The year the age is reached, as addMonths computes it.
    if (Math.floor((y * 12 + (m - 1) + years * 12 + months) / 12) <= year) return addMonths(dateOfBirth, years * 12 + months);
  }
  const [, years, months] = AOW_AGE_BY_YEAR.at(-1)!;
  return addMonths(dateOfBirth, years * 12 + months);
}

/** Self-service access statuses (statusEmployeeSelfService); the contract names HasAccessToClient and "a blocked value". */
export const SELF_SERVICE_STATUS = {
  noAccess: { key: 0, value: 'NoAccess' },
  hasAccess: { key: 1, value: 'HasAccessToClient' },
  blocked: { key: 2, value: 'Blocked' },
} as const;

/**
 * Whether the nightly revocation has run for this date by `today`: a date on or before today
 * has been processed (the task runs in the night into the date).
 */
export function revocationDue(revokeOn: IsoDate | null | undefined, today: IsoDate): boolean {
  return typeof revokeOn === 'string' && revokeOn <= today;
}

/** ISO 13616 mod-97 check of an IBAN (spaces ignored). */
export function isValidIban(iban: string): boolean {
  const compact = iban.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(compact)) return false;
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const digits = /[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  }
  return remainder === 1;
}
