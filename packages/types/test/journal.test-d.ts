import { describe, expectTypeOf, it } from 'vitest';
import type { ListItem, RequestBody, ResponseBodyOf, Schema, WriteSchema, operations, paths } from '../src/journal.js';

describe('journal types', () => {
  it('types the matrix patch body as an array of patch models', () => {
    type Body = RequestBody<'PatchCostCenterCostUnitMatrixAtWageModelLevelByJournalProfileId'>;
    expectTypeOf<Body>().toBeArray();
    expectTypeOf<Body[number]>().toEqualTypeOf<WriteSchema<'CostCenterCostUnitMatrixEntryPatch'>>();
    // @ts-expect-error the body is an array, not a single patch model
    const single: Body = {};
    void single;
  });

  it('types journal lists and their items', () => {
    expectTypeOf<ListItem<'GetCostCentersAtWageModelLevelByJournalProfileId'>>().toEqualTypeOf<Schema<'CostCenter'>>();
    expectTypeOf<keyof paths>().toExtend<`/journal/${string}`>();
  });

  it('offers the known 400 validation codes and still accepts any other code', () => {
    type BadRequest = ResponseBodyOf<operations['PostCostCenterAtWageModelLevelByJournalProfileId'], 400>;
    type Code = NonNullable<NonNullable<BadRequest['messages']>[number]['code']>;
    expectTypeOf<'API_Journal_WageModelCostCenter_Code_NotUnique_ProviderLevel'>().toExtend<Code>();
    expectTypeOf<Schema<'CostCenterCodeErrorCode'>>().toExtend<Code>();
    expectTypeOf<'API_Journal_SomeOtherBadRequest'>().toExtend<Code>();
  });

  it('requires none of the borrowed envelope fields', () => {
    type Detail = ResponseBodyOf<operations['PostCostCenterAtWageModelLevelByJournalProfileId'], 201>;
    const answer: Detail = {};
    expectTypeOf(answer).not.toBeAny();
  });
});
