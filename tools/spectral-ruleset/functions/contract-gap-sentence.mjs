// `x-contract-gap` records where the contract says "not shown", so readers know the shape is
// unknown rather than forgotten. It is read by people (and shown in the docs): a complete
// sentence, not a flag or a fragment.
import { createRulesetFunction } from '@stoplight/spectral-core';

export default createRulesetFunction({ input: null, options: null }, (value) => {
  if (typeof value !== 'string' || value.trim() === '') {
    return [{ message: 'x-contract-gap must be a sentence saying what the contract does not show.' }];
  }
  const text = value.trim();
  if (!/^[A-Z0-9`]/.test(text) || !/[.!?]$/.test(text) || !/\s/.test(text)) {
    return [{ message: `x-contract-gap "${text.slice(0, 60)}" must be a sentence: capitalised, several words, ending with a full stop.` }];
  }
  return [];
});
