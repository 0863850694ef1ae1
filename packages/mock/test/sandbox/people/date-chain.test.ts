import { describe, expect, it } from 'vitest';
import {
  addDays,
  addRecord,
  assertChain,
  ChainError,
  chainKey,
  endChain,
  moveChainStart,
  recordOn,
  reopenChain,
  type ChainRecord,
} from '#sandbox/domain/employments/date-chain.js';

const rec = (id: string, startDate: string, endDate: string | null = null): ChainRecord => ({ id, startDate, endDate });

describe('date chains (contract 2.1)', () => {
  it('adds days across month and year ends', () => {
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
  });

  it('selects the record valid on a date, ends inclusive', () => {
    const chain = [rec('a', '2024-01-01', '2024-06-30'), rec('b', '2024-07-01')];
    expect(recordOn(chain, '2024-06-30')?.id).toBe('a');
    expect(recordOn(chain, '2024-07-01')?.id).toBe('b');
    expect(recordOn(chain, '2023-12-31')).toBeUndefined();
  });

  it('a linked chain closes the previous record at the new start minus one day', () => {
    const chain = addRecord([rec('a', '2024-01-01')], rec('b', '2024-03-01'), 'linked');
    expect(chain).toEqual([rec('a', '2024-01-01', '2024-02-29'), rec('b', '2024-03-01')]);
  });

  it('a linked chain only appends at the end', () => {
    const chain = [rec('a', '2024-01-01', '2024-02-29'), rec('b', '2024-03-01')];
    expect(() => addRecord(chain, rec('c', '2024-02-01'), 'linked')).toThrow(ChainError);
    expect(() => addRecord(chain, rec('c', '2024-03-01'), 'linked')).toThrow(/appended after/);
  });

  it('a broken chain accepts gaps and inserts between records, never an overlap', () => {
    const chain = [rec('a', '2024-01-01', '2024-01-31'), rec('c', '2024-06-01', '2024-06-30')];
    const inserted = addRecord(chain, rec('b', '2024-03-01', '2024-03-31'), 'broken');
    expect(inserted.map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(() => addRecord(chain, rec('x', '2024-01-31', '2024-02-10'), 'broken')).toThrow(/overlaps/);
    expect(() => addRecord(chain, rec('x', '2024-05-01'), 'broken')).toThrow(/overlaps/);
  });

  it('refuses a record that ends before it starts', () => {
    expect(() => addRecord([], rec('a', '2024-02-01', '2024-01-01'), 'broken')).toThrow(ChainError);
    expect(() => assertChain([rec('a', '2024-02-01', '2024-01-01')])).toThrow(/before it starts/);
  });

  it('assertChain finds overlaps in any order', () => {
    expect(() => assertChain([rec('b', '2024-03-01'), rec('a', '2024-01-01')])).toThrow(/overlaps/);
    expect(() => assertChain([rec('b', '2024-03-01'), rec('a', '2024-01-01', '2024-02-29')])).not.toThrow();
  });

  it('ending a chain closes records running past the end date and reopening restores them', () => {
    const chain = [rec('a', '2024-01-01', '2024-02-29'), rec('b', '2024-03-01')];
    const ended = endChain(chain, '2024-05-31');
    expect(ended.map((r) => r.endDate)).toEqual(['2024-02-29', '2024-05-31']);
    expect(reopenChain(ended)).toEqual(chain);
  });

  it('ending twice (a revised termination) still reopens to the original ends', () => {
    const chain = [rec('a', '2024-01-01', '2024-12-31')];
    const once = endChain(chain, '2024-06-30');
    const twice = endChain(once, '2024-03-31');
    expect(twice[0]?.endDate).toBe('2024-03-31');
    expect(reopenChain(twice)).toEqual(chain);
  });

  it('refuses to end a chain before one of its records starts', () => {
    expect(() => endChain([rec('a', '2024-01-01', '2024-02-29'), rec('b', '2024-03-01')], '2024-02-15')).toThrow(/after the end date/);
  });

  it('moves the start of the first record, keeping the rest', () => {
    const chain = [rec('a', '2024-01-01', '2024-02-29'), rec('b', '2024-03-01')];
    expect(moveChainStart(chain, '2024-01-01', '2023-12-01')[0]).toEqual(rec('a', '2023-12-01', '2024-02-29'));
    expect(moveChainStart(chain, '2024-01-01', '2024-02-01')[0]?.startDate).toBe('2024-02-01');
  });

  it('refuses a start move past a later record', () => {
    const chain = [rec('a', '2024-01-01', '2024-02-29'), rec('b', '2024-03-01')];
    expect(() => moveChainStart(chain, '2024-01-01', '2024-04-01')).toThrow(ChainError);
  });

  it('keeps one chain per sub-context', () => {
    expect(chainKey('deviatingHourlyWages', 'component-1')).not.toBe(chainKey('deviatingHourlyWages', 'component-2'));
    expect(chainKey('wage')).toBe('wage');
  });
});
