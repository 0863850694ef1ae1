// The form helpers against the running sandbox: a refused request's messages under the
// body's fields, narrowing by status and by message type, and warnings on a success.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPayrollClient, unwrap, type Message } from '../src/index.js';
import { fieldErrors, isApiError, isBrokenBusinessRule, isException, isNotFound, isWarning, warningsOf } from '../src/forms.js';
import { startMock, type RunningMock } from './mock-server.js';

const EMPLOYER = '9c3a8a5e-2f7d-4b8e-a1c4-5d6e7f8a9b0c';
let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await mock?.stop();
});
const payroll = () => createPayrollClient({ baseUrl: `${mock.origin}/v2`, auth: `kit-forms-${Date.now()}`, retry: false });

describe('errors a form can show', () => {
  it('puts each message of a refused edit under the field its properties name', async () => {
    const client = payroll();
    const employer = unwrap(await client.GetEmployerByEmployerId({ employerId: EMPLOYER })).content!;
    const refused = await client.PutEmployerByEmployerId({ employerId: EMPLOYER }, { companyName: 'x'.repeat(300), address: { ...employer.address, postalCode: 'not a postal code' } } as never).then(unwrap).catch((e: unknown) => e);
    expect(isApiError(refused)).toBe(true);
    expect(isApiError(refused, 400)).toBe(true);
    expect(isApiError(refused, [401, 403])).toBe(false);
    expect(isApiError(new Error('x'), 400)).toBe(false);
    const errors = fieldErrors('PutEmployerByEmployerId', refused);
    expect(errors.fields.companyName?.[0]).toMatch(/companyName/);
    expect(Object.keys(errors.fields).length).toBeGreaterThanOrEqual(1);
    if (!isApiError(refused)) throw new Error('not an ApiError');
    expect(refused.messages.every(isBrokenBusinessRule)).toBe(true);
  });

  it('narrows messages by type; messages about no field, or the whole body, go to form', () => {
    const messages: Message[] = [
      { type: 'BrokenBusinessRule', description: 'rule', properties: ['address.postalCode'] },
      { type: 'Warning', description: 'careful', properties: ['companyName'] },
      { type: 'Exception', description: 'failed' },
      { type: 'NotFound', description: 'gone', properties: ['body'] },
    ];
    expect(messages.filter(isWarning).map((m) => m.description)).toEqual(['careful']);
    expect(messages.filter(isException).map((m) => m.description)).toEqual(['failed']);
    expect(messages.filter(isNotFound).map((m) => m.description)).toEqual(['gone']);
    const errors = fieldErrors('PutEmployerByEmployerId', { messages });
    expect(errors).toEqual({ fields: { 'address.postalCode': ['rule'] }, form: ['failed', 'gone'] });
    expect(fieldErrors('PutEmployerByEmployerId', { messages }, { includeWarnings: true }).fields.companyName).toEqual(['careful']);
    expect(warningsOf({ messages }).map((m) => m.description)).toEqual(['careful']);
  });

  it('reaches the warnings of a success answer from the result, its data or the body', async () => {
    const client = payroll();
    const result = await client.GetEmployerByEmployerId({ employerId: EMPLOYER });
    expect(result.response.status).toBe(200);
    expect(warningsOf(result)).toEqual([]);
    const withWarning = { ...result.data, messages: [{ type: 'Warning', description: 'The employer has no payroll administration yet.', code: 200, id: null, properties: [] }] };
    expect(warningsOf({ data: withWarning, response: result.response }).map((m) => m.description)).toEqual(['The employer has no payroll administration yet.']);
    expect(warningsOf(withWarning)).toHaveLength(1);
  });
});
