// The store wrappers (limits, stored bytes, token bytes) each change a few methods of a
// transaction and pass the rest through unchanged.
import type { Tx } from '@payroll-api/sandbox/engine';

/** The methods a wrapper may replace. */
export type TxOverrides = Partial<Omit<Tx, 'sandbox' | 'version'>>;

/**
 * A transaction that forwards every method to `tx` except those in `overrides`. It names no
 * version: the wrappers serve write transactions, which name no committed state to cache by.
 */
export function wrapTx(tx: Tx, overrides: TxOverrides): Tx {
  return {
    sandbox: tx.sandbox,
    count: tx.count?.bind(tx),
    get: tx.get.bind(tx),
    has: tx.has?.bind(tx),
    find: tx.find.bind(tx),
    getMeta: tx.getMeta.bind(tx),
    setMeta: tx.setMeta.bind(tx),
    insert: tx.insert.bind(tx),
    replace: tx.replace.bind(tx),
    remove: tx.remove.bind(tx),
    ...overrides,
  };
}
