// One rule for create and edit: what a resource module's create requires of the entity it
// makes, declared once (ResourceModule.creates). The engine checks a create's body against it
// with the body's schema, so that every problem is reported in one answer; and it checks the
// entity each edit paired with that create answers with (engine/create-requirements.ts), so
// that an edit cannot leave the entity without what its create had to give. Both refusals read
// "The field … is required.", the field named where the request's body holds it.
import { requiredMessage, type Message } from '../http/errors.js';

/** The fields a create requires, each with what it requires in turn (empty: just present). */
export interface RequiredFields {
  [field: string]: RequiredFields;
}

/** What creating an entity requires of the create's body. */
export interface CreateRule {
  /** Fields that must hold a value (null and blank text count as none), at their place in the body. */
  required: RequiredFields;
  /** The body's further rules that need no stored data, reported with the required fields. */
  check?(body: Record<string, unknown>): Message[];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether a value counts as left out: absent, null, or text of spaces only. */
export const isMissing = (value: unknown): boolean => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** The dotted paths of the required fields the entity (or body) lacks; an object left out names the fields it must hold. */
export function missingFields(required: RequiredFields, entity: unknown, at = ''): string[] {
  if (!isObject(entity)) return [];
  return Object.entries(required).flatMap(([name, inner]) => {
    const path = at ? `${at}.${name}` : name;
    const value = entity[name];
    if (!isMissing(value)) return missingFields(inner, value, path);
    return Object.keys(inner).length === 0 ? [path] : missingFields(inner, {}, path);
  });
}

/** The requirements below a path of the create's body (an edit's entity sits there), {} if none. */
export function requiredAt(required: RequiredFields, at: readonly string[]): RequiredFields {
  let node: RequiredFields | undefined = required;
  for (const name of at) node = node?.[name];
  return node ?? {};
}

/** Two sets of requirements as one (a field required by either). */
export function mergeRequired(a: RequiredFields, b: RequiredFields): RequiredFields {
  const out: RequiredFields = { ...a };
  for (const [name, inner] of Object.entries(b)) out[name] = mergeRequired(out[name] ?? {}, inner);
  return out;
}

/** Every problem of a create's body under its rule: the required fields it lacks, then the rule's own checks. */
export function createProblems(rule: CreateRule, body: unknown): Message[] {
  if (!isObject(body)) return [];
  return [...missingFields(rule.required, body).map(requiredMessage), ...(rule.check?.(body) ?? [])];
}
