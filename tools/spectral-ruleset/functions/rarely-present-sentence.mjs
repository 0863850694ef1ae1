// `x-rarely-present` marks a property the contract shows but that real data seldom holds (a
// date of death), so the sandbox's seed carries none: its value is the reason, a complete
// sentence, read by people and by the seed coverage check that accepts it.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { sentenceFindings } from '../lib/sentence.mjs';

export default createRulesetFunction({ input: null, options: null }, (value) => sentenceFindings(value, 'x-rarely-present', 'saying why the property is rarely present'));
