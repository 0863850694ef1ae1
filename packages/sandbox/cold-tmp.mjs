const t0 = performance.now();
const { createSandbox } = await import('@payroll-api/sandbox');
const t1 = performance.now();
const sandbox = await createSandbox();
const t2 = performance.now();
const res = await sandbox.fetch('http://sandbox.test/v2/v2/providers/employers/9c3a8a5e-2f7d-4b8e-a1c4-5d6e7f8a9b0c/employees?pageSize=10', { headers: { authorization: 'Bearer bench', accept: 'application/json;version=2021-03-29' } });
await res.json();
const t3 = performance.now();
console.log(JSON.stringify({ import: (t1-t0).toFixed(0), create: (t2-t1).toFixed(0), first: (t3-t2).toFixed(0), total: (t3-t0).toFixed(0) }));
