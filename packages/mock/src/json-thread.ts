// Large JSON bodies (snapshot imports, scenarios) parsed on a worker thread: decoding tens of
// megabytes of UTF-8 and parsing them are single long steps on whichever thread runs them, so
// the event loop that answers every other request hands them over. The worker runs the engine's
// own parseJsonBytes (the same bounds and refusals as in process), then sends the value back in
// pieces: the items of each long array in batches, then the value without them. Each message is
// copied in on its own turn of the event loop, so other requests are answered between them.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { parseJsonBytes, type JsonRead } from '@payroll-api/sandbox/engine';

/** Bodies up to this size are parsed in process (a few milliseconds). */
const IN_PROCESS_UP_TO = 1024 * 1024;
/** Items of an array sent back in one message (a batch of snapshot docs is about a megabyte). */
const BATCH_ITEMS = 500;

/** What the worker sends: a batch of the array at `path`, or the value without those items. */
type Reply = { id: number; path: Array<string | number>; items: unknown[] } | { id: number; done: JsonRead | null } | { id: number; failed: string };

// CommonJS, evaluated by the worker: the engine is required by its resolved path.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { parseJsonBytes } = require(workerData.engine);
const BATCH_ITEMS = ${BATCH_ITEMS};

/** Moves the items of every array longer than a batch into batches, depth first, leaving the array empty. */
function split(value, path, send) {
  if (Array.isArray(value)) {
    if (value.length > BATCH_ITEMS) {
      for (let start = 0; start < value.length; start += BATCH_ITEMS) send(path, value.slice(start, start + BATCH_ITEMS));
      value.length = 0;
      return;
    }
    value.forEach((item, i) => split(item, [...path, i], send));
  } else if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) split(value[key], [...path, key], send);
  }
}

parentPort.on('message', async ({ id, bytes }) => {
  try {
    const parsed = await parseJsonBytes(bytes);
    if (parsed && parsed.ok) split(parsed.value, [], (path, items) => parentPort.postMessage({ id, path, items }));
    parentPort.postMessage({ id, done: parsed ?? null });
  } catch (error) {
    parentPort.postMessage({ id, failed: String(error && error.message) });
  }
});
`;

interface Pending {
  batches: Array<{ path: Array<string | number>; items: unknown[] }>;
  resolve(read: JsonRead | undefined): void;
  reject(error: Error): void;
}

export interface JsonThread {
  parse(bytes: Uint8Array): Promise<JsonRead | undefined>;
  close(): Promise<void>;
}

/**
 * A worker started on the first large body and kept (unreferenced: it never holds the process
 * open). Its heap is bounded by `maxHeapMb`: a body that would need more fails there, with a 400,
 * and the next large body gets a new worker.
 */
export function createJsonThread(options: { maxHeapMb: number; setting: string }): JsonThread {
  let worker: Worker | undefined;
  let next = 0;
  const pending = new Map<number, Pending>();

  function start(): Worker {
    const engine = createRequire(import.meta.url).resolve('@payroll-api/sandbox/engine');
    const started = new Worker(WORKER_SOURCE, { eval: true, workerData: { engine }, resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb } });
    started.unref();
    started.on('message', (reply: Reply) => {
      const waiting = pending.get(reply.id);
      if (!waiting) return;
      if ('items' in reply) {
        waiting.batches.push(reply);
        return;
      }
      pending.delete(reply.id);
      if ('failed' in reply) return waiting.reject(new Error(`parsing a JSON body failed: ${reply.failed}`));
      if (reply.done?.ok) for (const { path, items } of waiting.batches) (valueAt(reply.done.value, path) as unknown[]).push(...items);
      waiting.resolve(reply.done ?? undefined);
    });
    // Out of memory (or any end): what it was parsing is refused, and the next body starts another.
    const stopped = (error?: Error) => {
      if (worker === started) worker = undefined;
      const refusal: JsonRead = {
        ok: false,
        description: `The request body could not be parsed within the memory given to one parse (${error?.message ?? 'the parser stopped'}); send a smaller one (the limit ${options.setting}).`,
        field: 'body',
      };
      for (const [id, waiting] of pending) {
        pending.delete(id);
        waiting.resolve(refusal);
      }
    };
    started.on('error', stopped);
    started.on('exit', () => stopped());
    return started;
  }

  return {
    async parse(bytes) {
      if (bytes.byteLength <= IN_PROCESS_UP_TO) return parseJsonBytes(bytes);
      worker ??= start();
      const id = next++;
      // The server reads bodies into shared memory (node-request.ts), which the worker reads in place.
      const shared = bytes.buffer instanceof SharedArrayBuffer ? bytes : new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
      if (shared !== bytes) shared.set(bytes);
      const answer = new Promise<JsonRead | undefined>((resolve, reject) => pending.set(id, { batches: [], resolve, reject }));
      worker.postMessage({ id, bytes: shared });
      return answer;
    },
    async close() {
      const stopping = worker;
      worker = undefined;
      await stopping?.terminate();
    },
  };
}

function valueAt(value: unknown, path: ReadonlyArray<string | number>): unknown {
  let at = value;
  for (const key of path) at = (at as Record<string | number, unknown>)[key];
  return at;
}
