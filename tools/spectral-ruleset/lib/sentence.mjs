// The prose markers of the descriptions (x-contract-gap, x-rarely-present) are read by people
// and shown in the docs: each is a complete sentence, not a flag or a fragment.

/** Findings for a marker value that is not a sentence (capitalised, several words, a full stop at the end). */
export function sentenceFindings(value, marker, says) {
  if (typeof value !== 'string' || value.trim() === '') {
    return [{ message: `${marker} must be a sentence ${says}.` }];
  }
  const text = value.trim();
  if (!/^[A-Z0-9`]/.test(text) || !/[.!?]$/.test(text) || !/\s/.test(text)) {
    return [{ message: `${marker} "${text.slice(0, 60)}" must be a sentence: capitalised, several words, ending with a full stop.` }];
  }
  return [];
}
