// Date chains (contract §2.1): the dated records of one employment section (wage, working
// hours, organizational entity, ...). Records of one chain never overlap. A broken chain allows
// gaps and inserts anywhere that fits; a linked chain has no gaps: a new record is appended at
// the end and closes the previous one at its start minus one day. A chain may be kept per
// sub-context (benefits and deductions: per payroll component).
//
// Pure functions over plain records, so the rules are unit-tested without a store; the
// employment handlers load a chain, apply one of these, and write the changed records back.

/** Dates are 'yyyy-MM-dd' strings: they compare correctly as strings. */
export type IsoDate = string;

export interface ChainRecord {
  id: string;
  startDate: IsoDate;
  endDate: IsoDate | null;
  /** The end date a termination replaced (null: it was open), so that reinstating reopens it. */
  endBeforeTermination?: IsoDate | null;
}

export type ChainKind = 'linked' | 'broken';

/** Why a chain change was refused; `field` names the request field that caused it. */
export class ChainError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = 'ChainError';
  }
}

export function addDays(date: IsoDate, days: number): IsoDate {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Whether the record is valid on `date` (start and end inclusive). */
export function isValidOn(record: ChainRecord, date: IsoDate): boolean {
  return record.startDate <= date && (record.endDate === null || record.endDate >= date);
}

export function overlap(a: ChainRecord, b: ChainRecord): boolean {
  return a.startDate <= (b.endDate ?? '9999-12-31') && b.startDate <= (a.endDate ?? '9999-12-31');
}

/** In start order. */
export function sorted<T extends ChainRecord>(records: readonly T[]): T[] {
  return [...records].sort((a, b) => (a.startDate < b.startDate ? -1 : a.startDate > b.startDate ? 1 : a.id < b.id ? -1 : 1));
}

/** The record valid on `date`, if any (at most one, since records never overlap). */
export function recordOn<T extends ChainRecord>(records: readonly T[], date: IsoDate): T | undefined {
  return records.find((r) => isValidOn(r, date));
}

/** Throws unless every record ends on or after its start and no two records overlap. */
export function assertChain(records: readonly ChainRecord[], field = 'startDate'): void {
  const ordered = sorted(records);
  for (const [i, record] of ordered.entries()) {
    if (record.endDate !== null && record.endDate < record.startDate) {
      throw new ChainError(`A record cannot end (${record.endDate}) before it starts (${record.startDate}).`, field);
    }
    const next = ordered[i + 1];
    if (next && overlap(record, next)) {
      throw new ChainError(`A record starting ${next.startDate} overlaps the record of ${record.startDate} to ${record.endDate ?? 'open end'}.`, field);
    }
  }
}

/**
 * Adds `record` to the chain and returns the new chain.
 * Linked: it must start after the last record's start; the last record is closed at its start
 * minus one day. Broken: it must fit without overlapping any record.
 */
export function addRecord<T extends ChainRecord>(records: readonly T[], record: T, kind: ChainKind): T[] {
  if (record.endDate !== null && record.endDate < record.startDate) {
    throw new ChainError(`endDate ${record.endDate} is before startDate ${record.startDate}.`, 'endDate');
  }
  if (kind === 'broken') {
    const clash = records.find((r) => overlap(r, record));
    if (clash) throw new ChainError(`The period overlaps the record of ${clash.startDate} to ${clash.endDate ?? 'open end'}.`, 'startDate');
    return sorted([...records, record]);
  }
  const ordered = sorted(records);
  const last = ordered.at(-1);
  if (!last) return [record];
  if (record.startDate <= last.startDate) {
    throw new ChainError(`A record of a linked chain can only be appended after the last record (starting ${last.startDate}).`, 'startDate');
  }
  const closed = { ...last, endDate: addDays(record.startDate, -1) };
  return [...ordered.slice(0, -1), closed, record];
}

/**
 * Ends the chain at `endDate` (termination): records running past it end on it, remembering
 * their previous end. Refused when a record starts after the end date, since ending the
 * employment before that record would leave it outside the employment.
 */
export function endChain<T extends ChainRecord>(records: readonly T[], endDate: IsoDate): T[] {
  const late = records.find((r) => r.startDate > endDate);
  if (late) throw new ChainError(`A record starts on ${late.startDate}, after the end date ${endDate}.`, 'endDate');
  return records.map((r) =>
    r.endDate === null || r.endDate > endDate ? { ...r, endDate, endBeforeTermination: r.endBeforeTermination !== undefined ? r.endBeforeTermination : r.endDate } : r,
  );
}

/** Undoes endChain: records a termination ended get their previous end back. */
export function reopenChain<T extends ChainRecord>(records: readonly T[]): T[] {
  return records.map((r) => {
    if (r.endBeforeTermination === undefined) return r;
    const { endBeforeTermination, ...rest } = r;
    return { ...rest, endDate: endBeforeTermination } as T;
  });
}

/**
 * Moves the chain's start from `oldStart` to `newStart` (start date correction): the record
 * starting on the old start now starts on the new one. Refused when that record would end
 * before its new start or overlap a later record.
 */
export function moveChainStart<T extends ChainRecord>(records: readonly T[], oldStart: IsoDate, newStart: IsoDate): T[] {
  const moved = records.map((r) => (r.startDate === oldStart ? { ...r, startDate: newStart } : r));
  const early = moved.find((r) => r.startDate < newStart);
  if (early) throw new ChainError(`A record starts on ${early.startDate}, before the new start date ${newStart}.`, 'startDate');
  assertChain(moved, 'startDate');
  return moved;
}

/** Records by chain: one chain per section, or per section and sub-context where kept so. */
export function chainKey(section: string, subContext?: string | null): string {
  return subContext ? `${section}/${subContext}` : section;
}
