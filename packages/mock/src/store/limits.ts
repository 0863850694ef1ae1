// Limits per sandbox (--max-entities): a write that would leave a sandbox holding more docs
// than the limit is refused (400 naming the limit) and changes nothing. The internal sandboxes
// ('__auth': tokens and clients) are not limited.
import { message, SandboxError, type Doc, type Snapshot, type Tx } from '@payroll-api/sandbox/engine';
import type { OperatedStore } from './index.js';

export function limitEntities(store: OperatedStore, maxEntities: number): OperatedStore {
  const refusal = (wouldHold: number) =>
    new SandboxError(400, [message(400, `This sandbox may hold at most ${maxEntities} entities (the limit --max-entities); it would hold ${wouldHold}. Delete some, or reset the sandbox (POST /__sandbox/reset).`, ['body'])]);
  return {
    transaction(sandbox, mode, fn) {
      if (mode === 'read' || sandbox.startsWith('__')) return store.transaction(sandbox, mode, fn);
      return store.transaction(sandbox, mode, (tx) => {
        let held: number | undefined;
        const limited: Tx = {
          sandbox: tx.sandbox,
          count: tx.count?.bind(tx),
          get: tx.get.bind(tx),
          find: tx.find.bind(tx),
          replace: tx.replace.bind(tx),
          getMeta: tx.getMeta.bind(tx),
          setMeta: tx.setMeta.bind(tx),
          async insert(collection: string, doc: Doc) {
            held ??= tx.count ? await tx.count() : 0;
            if (held >= maxEntities) throw refusal(held + 1);
            await tx.insert(collection, doc);
            held++;
          },
          async remove(collection: string, id: string) {
            const removed = await tx.remove(collection, id);
            if (removed && held !== undefined) held--;
            return removed;
          },
        };
        return fn(limited);
      });
    },
    reset: (sandbox) => store.reset(sandbox),
    exportSnapshot: (sandbox) => store.exportSnapshot(sandbox),
    async importSnapshot(sandbox: string, snapshot: Snapshot) {
      const docs = Object.values(snapshot.collections).reduce((total, list) => total + list.length, 0);
      if (docs > maxEntities && !sandbox.startsWith('__')) throw refusal(docs);
      return store.importSnapshot(sandbox, snapshot);
    },
    list: () => store.list(),
    close: () => store.close(),
    ping: store.ping?.bind(store),
    count: store.count?.bind(store),
  };
}
