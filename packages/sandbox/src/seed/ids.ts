// Well-known ids of the seed, shared by the payroll and journal seeds (so that the two APIs
// agree, e.g. journal allocations of employments point at the journal's cost centers) and by
// the docs and READMEs (their curl samples address these). Changing one changes every sample.
export const SEED_IDS = {
  provider: '1b6f7c2a-3d4e-4f5a-8b9c-0d1e2f3a4b5c',
  /** The README's quick-start employer: it has child employers. */
  employer: '9c3a8a5e-2f7d-4b8e-a1c4-5d6e7f8a9b0c',
  /** The README's quick-start wage model. */
  wageModel: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  /** A second wage model (the bakery's), with its own journal profile. */
  wageModelBakery: '6863a918-d000-457f-84e6-d278b5ed16c6',
} as const;
