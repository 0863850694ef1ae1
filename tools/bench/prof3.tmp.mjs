import { createServer } from 'node:http';
import { createPayrollClient } from '@payroll-api/client';
import createClient from 'openapi-fetch';
const body = JSON.stringify({ totalSize: 1, pageSize: 250, totalPages: 1, currentPage: 1, version: { resourceVersion: '2018-01-01', obsoleteDate: null }, messages: [], _embedded: [{ id: '5d0e5c1a-8b7f-4a2e-9c61-0f3b2a4d7e91', name: 'x' }] });
const server = createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json;version=2018-01-01', expires: '0' }); res.end(body); });
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;
const url = `${origin}/v2/v2/providers`;
const h = { Accept: 'application/json;version=2018-01-01', Authorization: 'Bearer t' };
const c1 = createPayrollClient({ baseUrl: `${origin}/v2`, auth: 't' });
const c2 = createPayrollClient({ baseUrl: `${origin}/v2`, auth: 't', retry: false });
const c3 = createPayrollClient({ baseUrl: `${origin}/v2`, retry: false });
const of = createClient({ baseUrl: `${origin}/v2`, headers: h });
const ofWrapped = createClient({ baseUrl: `${origin}/v2`, headers: h, fetch: (r) => fetch(r) });
const variants = {
  raw: async () => (await fetch(url, { headers: h })).json(),
  rawReq: async () => (await fetch(new Request(url, { headers: h }))).json(),
  of: async () => (await of.GET('/v2/providers')).data,
  client: async () => (await c1.GET('/v2/providers')).data,
  clientNoRetry: async () => (await c2.GET('/v2/providers')).data,
  clientNoAuth: async () => (await c3.GET('/v2/providers')).data,
};
const names = Object.keys(variants);
for (const n of names) for (let i = 0; i < 500; i++) await variants[n]();
const s = Object.fromEntries(names.map((n) => [n, []]));
for (let i = 0; i < 2500; i++) for (let k = 0; k < names.length; k++) { const n = names[(i + k) % names.length]; const t = process.hrtime.bigint(); await variants[n](); s[n].push(Number(process.hrtime.bigint() - t) / 1e3); }
const med = (x) => [...x].sort((a, b) => a - b)[x.length >> 1];
for (const n of names) console.log(n.padEnd(14), med(s[n]).toFixed(1), (med(s[n]) / med(s.raw)).toFixed(3));
server.close();
