export declare const RECORD_KEY: 'x-version-changes';
export declare const CHANGE_KINDS: readonly ['rename', 'remove', 'add', 'retype', 'revalue', 'note'];
export declare const FIELD_TYPES: readonly ['string', 'integer', 'number', 'boolean', 'array', 'object'];

export type FieldType = (typeof FIELD_TYPES)[number];
export type ConversionName =
  | 'number-to-string' | 'string-to-number' | 'integer-to-string' | 'string-to-integer'
  | 'boolean-to-string' | 'string-to-boolean' | 'integer-to-number' | 'number-to-integer'
  | 'value-to-array' | 'array-to-value';

export interface Conversion {
  from: FieldType | 'value';
  to: FieldType | 'value';
  inverse: ConversionName;
  /** The converted value, or undefined when the value cannot be converted. */
  convert(value: unknown): unknown;
}
export declare const CONVERSIONS: Record<ConversionName, Conversion>;

/** One change between two adjacent versions; field paths are dotted, arrays of objects are walked. */
export type VersionChange =
  | { rename: string; to: string }
  | { remove: string; default?: unknown }
  | { add: string; type: FieldType; default?: unknown }
  | { retype: string; type: FieldType; conversion: ConversionName }
  | { revalue: string; values: Record<string, unknown> }
  | { note: string; description: string };

export interface VersionStep {
  version: string;
  previous: string;
  changes: VersionChange[];
}
/** resource → steps, newest first. */
export type VersionChangeRecord = Record<string, VersionStep[]>;

export declare class VersionChangeError extends Error {
  field?: string;
  resource?: string;
  version?: string;
}

export declare function fieldSegments(path: string): string[] | null;
export declare function changeProblems(change: unknown): string[];
export declare function changeFields(change: VersionChange): { kind: (typeof CHANGE_KINDS)[number]; before: string | null; after: string | null };
export declare function describeChange(change: VersionChange): string;
export declare function recordProblems(record: unknown): string[];
export declare function recordFromRegistry(registry: { resources?: Record<string, { versions?: Array<{ version: string; changes?: VersionChange[] }> }> }): VersionChangeRecord;
export declare function entitiesOf(doc: unknown): unknown[];

export interface VersionChanges {
  record: VersionChangeRecord;
  steps(resource: string): VersionStep[];
  /** A body written at fromVersion, in the shape of toVersion (later). */
  upgrade<T = unknown>(resource: string, fromVersion: string, toVersion: string, body: unknown): T;
  /** An answer (envelope or entity) at fromNewest, in the shape of toVersion (earlier). */
  downgrade<T = unknown>(resource: string, fromNewest: string, toVersion: string, doc: unknown): T;
}
/** Reads `x-version-changes` from a bundle (or takes a record itself); throws when it is not valid. */
export declare function versionChanges(bundleOrRecord: unknown): VersionChanges;
/** The chain of a bundle, read once per bundle object; null when it records no version change. Throws when the record is not valid. */
export declare function chainOf(bundle: object): VersionChanges | null;

export declare const ENTITY_FIELDS: readonly ['content', '_embedded'];
/** Whether a schema with its references resolved declares the field (in an envelope's entity, or itself). */
export declare function schemaHasField(schema: unknown, path: string): boolean;
