// The sandbox "in this browser" for the Try-it console: the sandbox engine
// (@payroll-api/sandbox, the same one `payroll-mock` runs) in a dedicated Web Worker, bundled
// by the build into assets/sandbox-worker.<hash>.js and started on the first Try that goes to
// it. The console posts a request ({ id, method, url, headers, body }) and gets back
// { id, status, statusText, headers, body } or { id, error }.
//
// Why a worker: the engine validates requests with ajv, which compiles schemas with
// new Function. The reference pages' policy keeps script-src 'self' without 'unsafe-eval'; a
// worker loaded from the site has the policy of its own response instead (the site's server
// sends frame-ancestors only), so eval is allowed there and nowhere in the page.
//
// Persistence: after every call that is not a read, the token's sandbox is snapshotted into
// IndexedDB (one record per token); a new worker, e.g. after a reload, restores them first.
import { createSandbox } from '@payroll-api/sandbox';

const DATABASE = 'payroll-docs-sandbox';
const SNAPSHOTS = 'snapshots';

function openDatabase() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(SNAPSHOTS);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Runs one request against the snapshot store and resolves to its result. */
async function inStore(mode, act) {
  const db = await openDatabase();
  try {
    return await new Promise((resolve, reject) => {
      const transaction = db.transaction(SNAPSHOTS, mode);
      const request = act(transaction.objectStore(SNAPSHOTS));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = () => reject(transaction.error);
    });
  } finally {
    db.close();
  }
}

async function savedSandboxes() {
  const [tokens, snapshots] = await Promise.all([inStore('readonly', (store) => store.getAllKeys()), inStore('readonly', (store) => store.getAll())]);
  return tokens.map((token, index) => [token, snapshots[index]]);
}

const ready = (async () => {
  const sandbox = await createSandbox({ log: () => {} });
  let saved = [];
  try {
    saved = await savedSandboxes();
  } catch {
    // no IndexedDB (a private window may refuse it): every visit starts from the seed
  }
  for (const [token, snapshot] of saved) {
    try {
      await sandbox.restore(snapshot, { token });
    } catch {
      // a snapshot an older engine wrote that this one no longer takes: that token starts afresh
      await inStore('readwrite', (store) => store.delete(token)).catch(() => undefined);
    }
  }
  return sandbox;
})();

const bearer = (headers) => /^Bearer\s+(.+)$/i.exec(headers.authorization ?? headers.Authorization ?? '')?.[1]?.trim();

self.onmessage = async ({ data }) => {
  const { id, method, url, headers, body } = data;
  try {
    const sandbox = await ready;
    const response = await sandbox.fetch(new URL(url, 'http://sandbox.in-browser').href, { method, headers, body: body ?? undefined });
    const bytes = await response.arrayBuffer();
    const token = bearer(headers);
    if (token && method !== 'GET' && method !== 'HEAD') {
      const snapshot = await sandbox.snapshot({ token });
      await inStore('readwrite', (store) => store.put(snapshot, token)).catch(() => undefined);
    }
    self.postMessage({ id, status: response.status, statusText: response.statusText, headers: [...response.headers], body: bytes }, [bytes]);
  } catch (error) {
    self.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
};
