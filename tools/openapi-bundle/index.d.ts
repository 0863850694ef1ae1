export declare const HTTP_METHODS: readonly ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** The node a local `$ref` (#/…) points at; throws a clear error when it does not resolve. */
export declare function resolveRef<T = any>(doc: unknown, ref: string): T;

/** Follows a chain of `$ref`s to the node it ends at; other nodes (and undefined) come back as they are. */
export declare function deref<T = any>(doc: unknown, node: unknown): T;

/** The `version=yyyy-MM-dd` parameter of a media type key, or null. */
export declare function mediaTypeVersion(mediaType: string): string | null;

export interface OperationEntry {
  path: string;
  method: HttpMethod;
  pathItem: Record<string, any>;
  operation: Record<string, any>;
}

/** Every operation of a bundle, in path order then method order. */
export declare function operationsOf(doc: { paths?: Record<string, unknown> } | undefined | null): Generator<OperationEntry>;

/** The content (media type -> media object) of every 2xx response of an operation, merged. */
export declare function successContent(doc: unknown, operation: unknown): Record<string, { schema?: unknown } & Record<string, unknown>>;

/** Whether a schema (through allOf and $refs) declares `_embedded`: the contract's list envelope. */
export declare function isListEnvelope(doc: unknown, schema: unknown): boolean;

/** Decides whether `value` validates against a schema (a JSON Schema validator); picks oneOf/anyOf branches. */
export type SchemaMatcher = (schema: unknown, value: unknown) => boolean;

/** The schemas that apply to `value` at one place: through $ref, allOf, and the oneOf/anyOf branches `matches` accepts (all when none). */
export declare function applicableSchemas(doc: unknown, schema: unknown, value: unknown, matches?: SchemaMatcher): Array<Record<string, any>>;

/** The properties of `value` that `schema` does not name, as dotted paths (`[]` for array items), each once. */
export declare function undeclaredProperties(doc: unknown, schema: unknown, value: unknown, options?: { matches?: SchemaMatcher }): string[];
