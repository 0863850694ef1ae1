// Plain HTTP against a running sandbox for the employee and employment rules: calls with the
// payroll API's headers, every JSON answer checked against the operation's response schema at
// the served version (ajv on the bundle), and the sandbox state before and after a refused
// request, to show it changed nothing.
import { expect } from 'vitest';
import { bundles, contentValidator, describedResponse } from '../../support/bundle-schemas.js';

type Json = Record<string, any>;
const bundle = bundles.payroll;

export const BASE = '/v2/v2/providers/employers';

/** The request path of an operation, from the description (paths follow the bundle as it changes). */
export function pathOf(operationId: string, params: Record<string, string>): string {
  for (const [template, item] of Object.entries(bundle.paths as Json)) {
    for (const op of Object.values(item as Json)) {
      if ((op as Json)?.operationId === operationId) return `/v2${template.replace(/\{(\w+)\}/g, (_, name: string) => params[name]!)}`;
    }
  }
  throw new Error(`no operation ${operationId}`);
}

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
  raw: Buffer;
}

/** The operation a request addresses, by matching the bundle's path templates. */
function operationOf(method: string, path: string): { template: string; op: Json } | undefined {
  const bare = path.split('?')[0]!.replace(/^\/v2/, '');
  for (const [template, item] of Object.entries(bundle.paths as Json)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    const op = (item as Json)[method.toLowerCase()];
    if (op && pattern.test(bare)) return { template, op };
  }
  return undefined;
}

/** Checks a JSON answer against the response schema its status and content type select. */
export function expectValidAnswer(method: string, path: string, answer: Answer): void {
  const found = operationOf(method, path);
  expect(found, `${method} ${path} is an operation of the description`).toBeDefined();
  const contentType = answer.headers.get('content-type') ?? '';
  if (!contentType.startsWith('application/json') || answer.raw.length === 0) return;
  const described = describedResponse('payroll', found!.template, method, answer.status);
  const key = Object.keys(described?.response.content ?? {}).find((k) => k.split(';')[0] === 'application/json' && (!k.includes('version=') || contentType.replace(/\s/g, '').includes(k.split(';').find((p) => p.startsWith('version='))!)));
  expect(key, `${method} ${path} ${answer.status} ${contentType} is described`).toBeDefined();
  const validate = contentValidator('payroll', described!, key!);
  expect(validate(answer.body) ? [] : validate.errors, `${method} ${path} answer matches its schema`).toEqual([]);
}

export interface Sandbox {
  url: string;
  token: string;
}

export interface CallOptions {
  body?: unknown;
  /** The resource version asked for in Accept and Content-Type (default: the newest). */
  version?: string;
  headers?: Record<string, string>;
}

export function api(sandbox: Sandbox) {
  async function call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    const version = options.version ?? '2099-01-01';
    const hasBody = options.body !== undefined;
    const response = await fetch(`${sandbox.url}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${sandbox.token}`,
        Accept: `application/json;version=${version}`,
        ...(hasBody ? { 'Content-Type': `application/json;version=${version}` } : {}),
        ...options.headers,
      },
      body: hasBody ? JSON.stringify(options.body) : undefined,
    });
    const raw = Buffer.from(await response.arrayBuffer());
    const isJson = (response.headers.get('content-type') ?? '').startsWith('application/json');
    const answer = { status: response.status, body: isJson && raw.length > 0 ? JSON.parse(raw.toString('utf8')) : raw.toString('utf8'), headers: response.headers, raw };
    if (!path.startsWith('/__sandbox')) expectValidAnswer(method, path, answer);
    return answer;
  }
  async function control(method: string, path: string, body?: unknown): Promise<any> {
    const response = await fetch(`${sandbox.url}/__sandbox${path}`, {
      method,
      headers: { Authorization: `Bearer ${sandbox.token}`, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    expect(response.status, `${method} /__sandbox${path}: ${text}`).toBeLessThan(300);
    return text ? JSON.parse(text) : undefined;
  }
  return {
    get: (path: string, options?: CallOptions) => call('GET', path, options),
    put: (path: string, body: unknown, options?: CallOptions) => call('PUT', path, { ...options, body }),
    post: (path: string, body: unknown, options?: CallOptions) => call('POST', path, { ...options, body }),
    patch: (path: string, body: unknown, options?: CallOptions) => call('PATCH', path, { ...options, body }),
    delete: (path: string, options?: CallOptions) => call('DELETE', path, options),
    reset: () => control('POST', '/reset'),
    /** The sandbox's data (collections only: the clock and meta are not entity state). */
    state: async () => (await control('GET', '/snapshot')).collections as Record<string, Json[]>,
    snapshot: () => control('GET', '/snapshot'),
    importSnapshot: (snapshot: unknown) => control('PUT', '/snapshot', snapshot),
    setClock: (now: string) => control('PUT', '/clock', { now }),
    advanceClock: (days: number) => control('POST', '/clock/advance', { days }),
  };
}

export type Api = ReturnType<typeof api>;

/** Expects a 400 BrokenBusinessRule naming `property`, and the sandbox's data as it was before. */
export async function expectRefused(client: Api, request: () => Promise<Answer>, property?: string): Promise<Answer> {
  const before = await client.state();
  const answer = await request();
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  expect(answer.body.messages.length).toBeGreaterThan(0);
  if (property !== undefined) {
    expect(answer.body.messages.some((m: Json) => m.type === 'BrokenBusinessRule' && (m.properties as string[]).includes(property)), JSON.stringify(answer.body.messages)).toBe(true);
  }
  expect(await client.state()).toEqual(before);
  return answer;
}

/** A new employee as PostEmployeeByEmployerId takes it. */
export function newEmployee(overrides: { employeeNumber?: number; bsn?: string | null; gender?: number } = {}) {
  return {
    employeeData: {
      ...(overrides.employeeNumber !== undefined ? { employeeNumber: overrides.employeeNumber } : {}),
      personalDetails: {
        firstName: 'Thomas',
        lastName: 'Jong',
        prefix: 'de',
        initials: 'T.',
        dateOfBirth: '1990-08-17',
        placeOfBirth: 'Groningen',
        howToFormatLastName: { key: 1 },
        gender: { key: overrides.gender ?? 1 },
        nationality: { key: 1 },
      },
      address: { street: 'Herestraat', houseNumber: 15, postalCode: '9711 LA', city: 'Groningen', country: { key: 1 } },
      travel: { travelDistanceToWork: 5, travelDistanceToWorkInKm: 4.8 },
      exclusionFromAbsenceStatus: false,
    },
    employmentData: { typeOfEmployee: { key: 1 }, employmentDurationType: { key: 2 }, incomeRelationshipNumber: 1, temporaryTaxExemption: { key: 1 }, isOnCallEmployment: false, writtenEmploymentContract: true },
    workingHoursData: { startDate: '2026-02-01', shift: { shiftNumber: 1 }, deviatingHoursPerWeek: 32, regularWorkPattern: true },
    wageData: { startDate: '2026-02-01', payrollPeriodType: { key: 1 }, grossWage: 3150, grossWageType: { key: 1 }, isGrossWageFullTime: true, applyPayGrade: false },
    socialSecurityData: { startDate: '2026-02-01', isInsuredForSicknessBenefitsAct: true, isInsuredForUnemploymentInsuranceAct: true, isInsuredForOccupationalDisabilityInsuranceAct: true },
    citizenServiceNumber: { citizenServiceNumber: overrides.bsn === undefined ? '111222333' : overrides.bsn },
  };
}
