// `x-contract-gap` records where the contract says "not shown", so readers know the shape is
// unknown rather than forgotten. It is read by people (and shown in the docs): a complete
// sentence, not a flag or a fragment.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { sentenceFindings } from '../lib/sentence.mjs';

export default createRulesetFunction({ input: null, options: null }, (value) => sentenceFindings(value, 'x-contract-gap', 'saying what the contract does not show'));
