// The six-month window: a resource served at two versions keeps one state, so an entity
// written at one version reads back at the other as the description's version change record
// (x-version-changes) says the fields correspond. A rename is read under its new name, an
// added field with a default gets it, a retyped field is converted; both ways.
import { changeFields, fieldSegments, type VersionChange, type VersionChanges } from '@payroll-api/version-changes';

type Json = Record<string, unknown>;

/** The values at a dotted path, through arrays of objects (one value per element reached). */
export function valuesAt(value: unknown, path: string): unknown[] {
  const walk = (node: unknown, segments: string[]): unknown[] => {
    if (Array.isArray(node)) return node.flatMap((item) => walk(item, segments));
    if (segments.length === 0) return [node];
    if (!node || typeof node !== 'object' || !Object.hasOwn(node, segments[0]!)) return [];
    return walk((node as Json)[segments[0]!], segments.slice(1));
  };
  return walk(value, fieldSegments(path) ?? []);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
/** One value as itself; the values reached through an array as a list. */
const shown = (values: unknown[]) => JSON.stringify(values.length === 1 ? values[0] : values);

export interface Mismatch {
  field: string;
  expected: unknown[];
  actual: unknown[];
  message: string;
}

/**
 * What the record promises about an entity written at `from` and read back at `to` (either
 * direction), field by field: for every field a change between the two versions names, the
 * value read at `to` is the written entity run through the chain. Returns the fields that
 * differ; a field the chain gives no value for is not compared.
 */
export function crossVersionMismatches(chain: VersionChanges, resource: string, from: string, to: string, written: unknown, read: unknown): Mismatch[] {
  if (from === to) return [];
  const up = from < to;
  const expected = up ? chain.upgrade(resource, from, to, written) : chain.downgrade(resource, from, to, written);
  const [older, newer] = up ? [from, to] : [to, from];
  const changes = chain.steps(resource).filter((step) => step.previous >= older && step.version <= newer).flatMap((step) => step.changes as VersionChange[]);
  const fields = [...new Set(changes.map((change) => (up ? changeFields(change).after : changeFields(change).before)).filter((f): f is string => f !== null))];
  const out: Mismatch[] = [];
  for (const field of fields) {
    const want = valuesAt(expected, field);
    const got = valuesAt(read, field);
    // Where the chain gives no value (a field removed without a default), nothing is promised.
    if (want.length === 0) continue;
    if (!same(want, got)) {
      out.push({
        field,
        expected: want,
        actual: got,
        message: `written at ${from}, read at ${to}: \`${field}\` ${got.length === 0 ? 'is missing' : `is ${shown(got)}`}, the version change record gives ${shown(want)}`,
      });
    }
  }
  return out;
}
