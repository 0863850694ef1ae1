// A child process for the --data crash test: opens a memory store kept in argv[2], commits
// write transactions one after another and prints `committed <n>` once each has returned,
// until it is killed (the test kills it with SIGKILL at a moment of its choosing).
import { createStore } from '../../src/store/index.js';
import { collections, seed } from '../sandbox/store/conformance.js';

const store = await createStore({ seed, collections, dataDir: process.argv[2]! });
for (let n = 1; ; n++) {
  await store.transaction('crash', 'write', async (tx) => {
    await tx.insert('employees', { id: `written-${n}`, employeeNumber: 10_000 + n, note: 'x'.repeat(n % 50) });
    await tx.setMeta('last', n);
  });
  process.stdout.write(`committed ${n}\n`);
}
