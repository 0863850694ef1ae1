// The contract gives only some paths (section 4.2); the others are inferred from them.
// Every path item says which with `x-path-source: contract | inferred`, so a reader can tell
// a path the provider documents from one this description derived.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { isObject } from '../lib/openapi.mjs';

const SOURCES = ['contract', 'inferred'];

export default createRulesetFunction({ input: null, options: null }, (pathItem, _options, context) => {
  if (!isObject(pathItem)) return [];
  const source = pathItem['x-path-source'];
  if (source === undefined) {
    return [{ message: `Path ${String(context.path.at(-1))} has no x-path-source (contract or inferred).` }];
  }
  if (!SOURCES.includes(source)) {
    return [{ message: `x-path-source of ${String(context.path.at(-1))} must be contract or inferred, not "${String(source)}".`, path: [...context.path, 'x-path-source'] }];
  }
  return [];
});
