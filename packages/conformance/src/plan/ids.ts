// Path parameters for a server whose data the checker does not know: ids are learned from
// the answers of operations it can already call (lists first), so that the run works against
// the sandbox's seed, the examples mock or a real acceptance environment alike. Values given
// with --param win; a parameter's example in the description is the last resort.
import type { OperationSpec } from '../description.js';

/** A fixed caching token: any uuid gives the same output. */
const CACHE_TOKEN = '00000000-0000-4000-8000-000000000001';

// Names the contract gives one thing twice: the pay scale of the concept employee metadata is
// the salary scale type of the job applicant metadata (contract §4.2, "pay grades for a pay scale").
const ALIASES = new Map<string, string[]>([['payScaleKey', ['salaryScaleTypeKey']]]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Known {
  value: string;
  /** The path the value was learned from (ids from a nearby path are preferred). */
  from: string;
}

export class IdPool {
  private readonly known = new Map<string, Known[]>();

  constructor(
    /** The path parameter names of the description, to match learned names against. */
    private readonly names: Set<string>,
    private readonly given: Record<string, string> = {},
  ) {}

  private canonical(candidate: string): string | undefined {
    const wanted = candidate.toLowerCase();
    for (const name of this.names) if (name.toLowerCase() === wanted) return name;
    for (const name of [...ALIASES.values()].flat()) if (name.toLowerCase() === wanted) return name;
    return undefined;
  }

  add(name: string, value: string, from: string): void {
    const canonical = this.canonical(name);
    if (!canonical || !UUID.test(value)) return;
    const list = this.known.get(canonical) ?? [];
    if (!list.some((k) => k.value === value)) list.push({ value, from });
    this.known.set(canonical, list);
  }

  /** Forgets a value (its entity was deleted by a write of this run). */
  forget(value: string): void {
    for (const list of this.known.values()) {
      const index = list.findIndex((k) => k.value === value);
      if (index >= 0) list.splice(index, 1);
    }
  }

  /** A value for `name` on `path`: given, else learned nearest to the path, else the description's example. */
  value(name: string, path: string, example?: unknown): string | undefined {
    if (this.given[name] !== undefined) return this.given[name];
    // The logo and photo addresses' {version} is a caching token with no effect on the output.
    if (name === 'version') return CACHE_TOKEN;
    // A bare {id} is the id of the segment before it (salaryScaleType/{id}).
    if (name === 'id') {
      const segments = path.split('/');
      const owner = segments[segments.indexOf('{id}') - 1];
      return owner ? (this.value(`${owner}Key`, path) ?? this.value(`${owner}Id`, path) ?? (typeof example === 'string' ? example : undefined)) : undefined;
    }
    const list = this.known.get(this.canonical(name) ?? name);
    if (list && list.length > 0) {
      return [...list].sort((a, b) => sharedPrefix(b.from, path) - sharedPrefix(a.from, path))[0]?.value;
    }
    return typeof example === 'string' ? example : undefined;
  }

  /** Learns ids from one answer of `operation`. */
  learn(operation: OperationSpec, body: unknown): void {
    const envelope = body as Record<string, unknown> | undefined;
    if (!envelope || typeof envelope !== 'object') return;
    const entity = entityName(operation.path);
    const content = envelope.content;
    // Metadata answers: [{field, options: [{key, value}]}]; an option's key addresses the
    // field's own endpoints (payScale → {payScaleKey}).
    if (Array.isArray(content)) {
      for (const entry of content as Array<{ field?: unknown; options?: unknown }>) {
        const field = typeof entry?.field === 'string' ? entry.field.split('.').pop() : undefined;
        if (!field || !Array.isArray(entry.options)) continue;
        for (const option of entry.options as Array<{ key?: unknown }>) {
          if (typeof option?.key !== 'string') continue;
          this.add(`${field}Key`, option.key, operation.path);
          for (const alias of ALIASES.get(`${field}Key`) ?? []) this.add(alias, option.key, operation.path);
        }
      }
    }
    const items = Array.isArray(envelope._embedded) ? envelope._embedded : content !== undefined && !Array.isArray(content) ? [content] : [envelope];
    for (const item of items) {
      if (!item || typeof item !== 'object') continue;
      const record = item as Record<string, unknown>;
      if (typeof record.id === 'string') {
        if (record.isPayrollAdministration === true) this.add('payrollAdministrationId', record.id, operation.path);
        if (entity) this.add(`${entity}Id`, record.id, operation.path);
      }
      for (const [key, value] of Object.entries(record)) this.walk(key, value, operation.path, 0);
    }
  }

  private walk(key: string, value: unknown, from: string, depth: number): void {
    if (depth > 4 || !value || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value) this.walk(key, item, from, depth + 1);
      return;
    }
    const record = value as Record<string, unknown>;
    if (typeof record.id === 'string') this.add(`${key}Id`, record.id, from);
    if (typeof record.key === 'string') this.add(`${key}Key`, record.key, from);
    for (const [child, nested] of Object.entries(record)) this.walk(child, nested, from, depth + 1);
  }
}

function sharedPrefix(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return n;
}

/** The entity a list or detail path answers: its last literal segment, singular ('employees' → 'employee'). */
export function entityName(path: string): string | undefined {
  const literals = path.split('/').filter((s) => s && !s.startsWith('{') && !/^v\d+$/.test(s));
  const skip = new Set(['minimized', 'comprehensive', 'metadata', 'defaults', 'logoonly']);
  const last = [...literals].reverse().find((s) => !skip.has(s.toLowerCase()));
  if (!last) return undefined;
  return last.replace(/ies$/, 'y').replace(/s$/, '');
}
