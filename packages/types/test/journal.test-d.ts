import { describe, expectTypeOf, it } from 'vitest';
import type { ListItem, RequestBody, Schema, WriteSchema, paths } from '../src/journal.js';

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
});
