// The seeded entities an integrator starts from, above all those the contract gives no list
// for (wage models, and the journal profiles of a wage model): the providers, the employers,
// the payroll administrations with their wage model, and the wage models with their journal
// profiles. One list for the sandbox's control read (GET /__sandbox/seeded-ids, over the
// caller's sandbox) and for the docs' Start here table (over the seed), so neither is copied.
import type { Doc } from '../store/types.js';
import { ORG_COLLECTIONS } from '../domain/reference-data.js';
import { JOURNAL_COLLECTIONS } from './journal.js';
import { SEED_IDS } from './ids.js';

export type SeededKind = 'provider' | 'employer' | 'payrollAdministration' | 'wageModel' | 'journalProfile';

export interface SeededEntity {
  kind: SeededKind;
  id: string;
  /** Its name: a provider's name, an employer's company name, a description. */
  name: string;
  /** The name the docs' samples give its id (SEED_IDS), if they address it. */
  sampleName?: string;
  /** The employer of a payroll administration. */
  employerId?: string;
  /** The wage model of a payroll administration or of a wage model level journal profile. */
  wageModelId?: string;
}

/** The collections the list is read from: what the control read copies from a sandbox. */
export const SEEDED_ID_COLLECTIONS = [
  ORG_COLLECTIONS.providers,
  ORG_COLLECTIONS.employers,
  ORG_COLLECTIONS.administrations,
  JOURNAL_COLLECTIONS.wageModels,
  JOURNAL_COLLECTIONS.payrollAdministrations,
  JOURNAL_COLLECTIONS.profiles,
] as const;

const text = (value: unknown): string => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value));

/** The entities to start from in `collections` (the seed's, or a sandbox's seeded docs), in the order above. */
export function seededEntities(collections: Record<string, Doc[] | undefined>): SeededEntity[] {
  const docs = (name: string) => collections[name] ?? [];
  const sampleNames = new Map<string, string>(Object.entries(SEED_IDS).map(([name, id]) => [id, name]));
  const entity = (kind: SeededKind, doc: Doc, name: unknown, related: Partial<SeededEntity> = {}): SeededEntity => {
    const sampleName = sampleNames.get(doc.id);
    return { kind, id: doc.id, name: text(name), ...(sampleName ? { sampleName } : {}), ...related };
  };
  const journalAdministrations = new Map(docs(JOURNAL_COLLECTIONS.payrollAdministrations).map((doc) => [doc.id, doc]));
  const employerId = (doc: Doc) => ({ employerId: text(doc.employerId) });
  const wageModelId = (id: unknown) => (typeof id === 'string' ? { wageModelId: id } : {});
  return [
    ...docs(ORG_COLLECTIONS.providers).map((doc) => entity('provider', doc, doc.name)),
    ...docs(ORG_COLLECTIONS.employers).map((doc) => entity('employer', doc, doc.companyName)),
    ...docs(ORG_COLLECTIONS.administrations)
      .filter((doc) => doc.isPayrollAdministration === true)
      .map((doc) => entity('payrollAdministration', doc, doc.description ?? doc.name, { ...employerId(doc), ...wageModelId(journalAdministrations.get(doc.id)?.wageModelId) })),
    ...docs(JOURNAL_COLLECTIONS.wageModels).map((doc) => entity('wageModel', doc, doc.description)),
    ...docs(JOURNAL_COLLECTIONS.profiles)
      .filter((doc) => doc.level === 'wageModel')
      .map((doc) => entity('journalProfile', doc, doc.description, wageModelId(doc.wageModelId))),
  ];
}
