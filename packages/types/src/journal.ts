/**
 * Types of the Journal configuration API, generated from spec/dist/journal.json.
 *
 * `paths` and `operations` are what openapi-fetch consumes; the helpers below name the
 * request and response bodies of one operation by its operationId.
 */
import type { components, operations, Readable, Writable } from './generated/journal.js';
import type { ListItemOf, PathParamsOf, QueryOf, RequestBodyOf, ResponseBodyOf } from './helpers.js';

export type { $defs, $Read, $Write, components, operations, paths, Readable, Writable } from './generated/journal.js';
export type { JsonContent, JsonMediaKey, ListItemOf, PathParamsOf, QueryOf, RequestBodyOf, ResponseBodyOf } from './helpers.js';

/** Every operationId of the Journal API. */
export type OperationId = keyof operations;
/** Every named schema of the Journal API, as stored (with read/write markers). */
export type Schemas = components['schemas'];
/** A schema in its read shape (what responses carry). */
export type Schema<Name extends keyof Schemas> = Readable<Schemas[Name]>;
/** A schema in its write shape (readOnly fields absent). */
export type WriteSchema<Name extends keyof Schemas> = Writable<Schemas[Name]>;
/** The body an operation sends, readOnly fields absent. */
export type RequestBody<Id extends OperationId> = RequestBodyOf<operations[Id]>;
/** The success body an operation returns (its JSON envelope). */
export type ResponseBody<Id extends OperationId> = ResponseBodyOf<operations[Id]>;
/** The item of a list operation's `_embedded`. */
export type ListItem<Id extends OperationId> = ListItemOf<ResponseBody<Id>>;
/** The query parameters of an operation. */
export type Query<Id extends OperationId> = QueryOf<operations[Id]>;
/** The path parameters of an operation. */
export type PathParams<Id extends OperationId> = PathParamsOf<operations[Id]>;
