// What every journal module shares: how codes and descriptions compare, the journal's
// validation messages (a string code in the message's `code`, where the description puts
// it), the fixed filters of the journal collections, and the lookups that answer 404.
import type { Message } from '../../http/errors.js';
import { SandboxError, type OperationContext } from '../../domain/context.js';
import type { BoundFilter, Literal } from '../../filter/tree.js';
import type { Doc, Tx } from '../../store/types.js';
import { JOURNAL_COLLECTIONS, type JournalLevel } from '../../seed/journal.js';
import { ORG_COLLECTIONS } from '../../domain/reference-data.js';

/**
 * Codes of cost centers and cost units, and descriptions of journal profiles, are unique
 * across the three levels. They compare as a case-insensitive SQL collation compares text:
 * case-insensitively, with trailing spaces ignored and leading spaces significant. Input is
 * stored as sent (not trimmed), so 'K100 ' is stored with its space but clashes with 'k100'.
 */
export function sameText(a: unknown, b: unknown): boolean {
  return typeof a === 'string' && typeof b === 'string' && comparable(a) === comparable(b);
}
const comparable = (text: string): string => text.replace(/ +$/, '').toLowerCase();

/** A journal validation message: the code is one of the operation's string codes. */
export function journalMessage(code: string, description: string, properties: string[] = [], id: string | null = null): Message {
  // The shared Message type has the payroll API's integer code; the journal's codes are strings.
  return { code, id, type: 'BrokenBusinessRule', description, properties } as unknown as Message;
}

/** Refuses with every failing rule's message (nothing the request wrote is kept). */
export function refuseWhenAny(messages: Message[]): void {
  if (messages.length > 0) throw new SandboxError(400, messages);
}

const field = (name: string) => ({ path: [name], type: 'string' as const });

/** Docs whose fields equal the given (non-null) values exactly. */
export function whereEquals(values: Record<string, Literal>): BoundFilter {
  const nodes: BoundFilter[] = Object.entries(values).map(([name, value]) => ({ kind: 'in', field: field(name), values: [value] }));
  return nodes.reduce<BoundFilter>((left, right) => (left.kind === 'true' ? right : { kind: 'and', left, right }), { kind: 'true' });
}

/** Every doc of a collection with the given field values. */
export async function findAll(tx: Tx, collection: string, values: Record<string, Literal>): Promise<Doc[]> {
  const nonNull = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null));
  const { rows } = await tx.find(collection, { where: whereEquals(nonNull) });
  return rows.filter((doc) => Object.entries(values).every(([name, v]) => (v === null ? doc[name] == null : doc[name] === v)));
}

/** The doc at the given level, or 404 (an id of another level does not address this resource). */
export async function getAtLevel(tx: Tx, collection: string, id: string, level: JournalLevel): Promise<Doc> {
  const doc = await tx.get(collection, id);
  if (!doc || doc.level !== level) throw new SandboxError(404);
  return doc;
}

/** The wage model level journal profile of the path (`journalProfileId`), or 404. */
export const wageModelProfileOf = (ctx: OperationContext): Promise<Doc> =>
  getAtLevel(ctx.tx, JOURNAL_COLLECTIONS.profiles, ctx.params.journalProfileId ?? '', 'wageModel');

/** The body as an object (Prism has checked it against the request schema). */
export const bodyOf = (ctx: OperationContext): Record<string, unknown> =>
  ctx.body && typeof ctx.body === 'object' && !Array.isArray(ctx.body) ? (ctx.body as Record<string, unknown>) : {};

/** Where the journal's relation fields point (CollectionSpec.relations). */
const RELATED: Record<string, string> = {
  providerId: ORG_COLLECTIONS.providers,
  wageModelId: JOURNAL_COLLECTIONS.wageModels,
  payrollAdministrationId: JOURNAL_COLLECTIONS.payrollAdministrations,
  journalProfileId: JOURNAL_COLLECTIONS.profiles,
  costCenterId: JOURNAL_COLLECTIONS.costCenters,
  costUnitId: JOURNAL_COLLECTIONS.costUnits,
};
export const relations = (...fields: string[]) => fields.map((field) => ({ field, collection: RELATED[field]! }));
/** Relations every doc must name: without one it is an orphan no list or rule reaches. */
export const requiredRelations = (...fields: string[]) => relations(...fields).map((relation) => ({ ...relation, required: true }));
/** Relations the docs of the levels given must name (a wage model level profile its wage model, a payroll administration level entity its administration). */
export const relationsAtLevels = (levels: readonly JournalLevel[], ...fields: string[]) => relations(...fields).map((relation) => ({ ...relation, required: (doc: Doc) => levels.includes(doc.level as JournalLevel) }));

/** The levels, in the order their rules are checked and reported. */
export const LEVELS: readonly JournalLevel[] = ['provider', 'wageModel', 'payrollAdministration'];

export const LEVEL_NAMES: Record<JournalLevel, string> = {
  provider: 'provider level',
  wageModel: 'wage model level',
  payrollAdministration: 'payroll administration level',
};
