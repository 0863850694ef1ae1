// One generated sequence of requests (fast-check, fixed seed) replayed through every transport:
// statuses, the headers a client reads and the bodies must be identical, apart from the
// instants the clock sets. Created ids follow each sandbox's sequence, so they agree too.
import { SEED_IDS } from '@payroll-api/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateSequence, wire, type Step } from '../src/sequence.js';
import { startTransport, TRANSPORTS, type Transport, type TransportName } from '../src/transports.js';
import { json, type WireRequest, type WireResponse } from '../src/wire.js';

const SEED = 20_261_125;
const LENGTH = 520;
const EMPLOYEES = `/v2/v2/providers/employers/${SEED_IDS.employer}/employees`;
const COMPARED_HEADERS = ['content-type', 'content-disposition', 'retry-after', 'allow', 'deprecation', 'sunset', 'www-authenticate', 'x-sandbox-authorization'];
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/;

/** What is compared of an answer: the status, the headers a client reads, the body with instants blanked. */
function comparable(response: WireResponse): unknown {
  if (response.networkError) return 'network error';
  const headers = Object.fromEntries(COMPARED_HEADERS.filter((h) => response.headers[h] !== undefined).map((h) => [h, response.headers[h]]));
  const type = response.headers['content-type'] ?? '';
  const body = type.includes('json') && response.base64 ? JSON.parse(Buffer.from(response.base64, 'base64').toString('utf8'), (_key, value) => (typeof value === 'string' && INSTANT.test(value) ? '<instant>' : value)) : response.base64;
  return { status: response.status, headers, body };
}

interface Run {
  transport: Transport;
  /** Seeded employees (ids of the first page), and the cost centers this run created, in order. */
  employees: string[];
  created: string[];
  costCenters: string;
  log: Array<{ step: number; request: WireRequest; answer: unknown }>;
}

async function exchange(run: Run, index: number, request: WireRequest): Promise<WireResponse> {
  const answer = await run.transport.send(request);
  run.log.push({ step: index, request, answer: comparable(answer) });
  return answer;
}

async function play(run: Run, index: number, step: Step): Promise<void> {
  const costCenter = (n: number) => `/journal/providers/wagemodels/journalprofiles/costcenters/${run.created.length ? run.created[n % run.created.length] : '00000000-0000-4000-8000-000000000000'}`;
  const employee = (i: number) => `/v2/v2/providers/employers/employees/${run.employees[i % run.employees.length]}`;
  switch (step.kind) {
    case 'list-employees': {
      const query = new URLSearchParams({ pageSize: String(step.pageSize), pageNumber: String(step.pageNumber) });
      if (step.orderBy) query.set('orderBy', step.orderBy);
      if (step.filter) query.set('filter', step.filter);
      await exchange(run, index, wire('GET', `${EMPLOYEES}?${query}`, step.token));
      return;
    }
    case 'get-employee':
      await exchange(run, index, wire('GET', employee(step.index), step.token));
      return;
    case 'put-employee': {
      const read = await exchange(run, index, wire('GET', employee(step.index), step.token));
      const current = json(read)?.content;
      if (!current) return;
      const { id: _id, personalDetails, ...rest } = current;
      const editable = { ...rest, personalDetails: { ...personalDetails, lastName: step.lastName } };
      for (const readOnly of ['employerNumber', 'aowDate', 'formattedName']) delete (editable.personalDetails as Record<string, unknown>)[readOnly];
      await exchange(run, index, wire('PUT', employee(step.index), step.token, editable));
      return;
    }
    case 'list-cost-centers':
      await exchange(run, index, wire('GET', run.costCenters, step.token));
      return;
    case 'create-cost-center': {
      const answer = await exchange(run, index, wire('POST', run.costCenters, step.token, { code: step.code }));
      if (!answer.networkError && answer.status === 201) run.created.push(json(answer).content.id);
      return;
    }
    case 'patch-cost-center':
      await exchange(run, index, wire('PATCH', costCenter(step.created), step.token, { code: step.code }));
      return;
    case 'delete-cost-center':
      await exchange(run, index, wire('DELETE', costCenter(step.created), step.token));
      return;
    case 'bad-body':
      await exchange(run, index, wire('POST', run.costCenters, step.token, { code: 7, description: ['x'] }));
      return;
    case 'unknown-employer':
      await exchange(run, index, wire('GET', '/v2/v2/providers/employers/00000000-0000-4000-8000-000000000001', step.token));
      return;
    case 'no-token':
      await exchange(run, index, wire('GET', EMPLOYEES, undefined));
      return;
    case 'advance-clock':
      await exchange(run, index, wire('POST', '/__sandbox/clock/advance', step.token, { days: step.days }));
      return;
    case 'reset':
      await exchange(run, index, wire('POST', '/__sandbox/reset', step.token));
      return;
    case 'snapshot':
      await exchange(run, index, wire('GET', '/__sandbox/snapshot', step.token));
      return;
    case 'fault':
      await exchange(run, index, wire('GET', run.costCenters, step.token, undefined, { 'X-Sandbox-Fault': `status=${step.status}` }));
      return;
  }
}

const sequence = generateSequence(LENGTH, SEED);
const runs = new Map<TransportName, Run>();

beforeAll(async () => {
  for (const name of TRANSPORTS) {
    const transport = await startTransport(name);
    const employees = (json(await transport.send(wire('GET', `${EMPLOYEES}?pageSize=10&orderBy=employeeNumber`, 'setup')))._embedded as Array<{ id: string }>).map((e) => e.id);
    const profiles = json(await transport.send(wire('GET', `/journal/providers/wagemodels/${SEED_IDS.wageModel}/journalprofiles`, 'setup')))._embedded as Array<{ id: string }>;
    runs.set(name, { transport, employees, created: [], costCenters: `/journal/providers/wagemodels/journalprofiles/${profiles[0]!.id}/costcenters`, log: [] });
  }
});
afterAll(async () => {
  for (const run of runs.values()) await run.transport.close();
});

it(`replays ${LENGTH} generated steps (seed ${SEED}) through ${TRANSPORTS.join(', ')} with identical answers`, async () => {
  // Step by step, every transport in turn, so that a difference is reported where it starts.
  for (const [index, step] of sequence.entries()) {
    for (const run of runs.values()) await play(run, index, step);
  }
  const [first, ...others] = [...runs.values()];
  expect(first!.log.length).toBeGreaterThanOrEqual(500);
  const statuses = new Set(first!.log.map((e) => (e.answer as { status?: number }).status ?? 0));
  // The sequence reaches successes, refusals and faults alike.
  for (const status of [200, 201, 400, 401, 404, 503]) expect(statuses).toContain(status);
  for (const other of others) {
    expect(other.log.length).toBe(first!.log.length);
    for (const [i, entry] of first!.log.entries()) {
      const theirs = other.log[i]!;
      expect({ transport: other.transport.name, step: theirs.step, request: theirs.request, answer: theirs.answer }).toEqual({ transport: other.transport.name, step: entry.step, request: entry.request, answer: entry.answer });
    }
  }
});
