import { describe, expectTypeOf, it } from 'vitest';
import type { ApiError, Message } from '../src/index.js';
import { fieldErrors, isApiError, isWarning, type BodyFieldPath } from '../src/forms.js';

describe('form helper types', () => {
  it('keys field errors by the paths of the activity body', () => {
    const errors = fieldErrors('PutEmployerByEmployerId', {});
    expectTypeOf(errors.fields['address.postalCode']).toEqualTypeOf<string[] | undefined>();
    // @ts-expect-error not a field of the employer body
    void errors.fields.salary;
    expectTypeOf<'items[0].key'>().toExtend<BodyFieldPath<{ items: { key: number }[] }>>();
    expectTypeOf<'items.key'>().not.toExtend<BodyFieldPath<{ items: { key: number }[] }>>();
    // @ts-expect-error an activity without a JSON body
    fieldErrors('GetEmployerByEmployerId', {});
  });

  it('narrows', () => {
    const error: unknown = undefined;
    if (isApiError(error, 400)) expectTypeOf(error).toEqualTypeOf<ApiError>();
    const messages = [] as Message[];
    expectTypeOf(messages.filter(isWarning)[0]!.type).toEqualTypeOf<'Warning'>();
  });
});
