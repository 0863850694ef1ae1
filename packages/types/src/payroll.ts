/**
 * Types of the Payroll and HR API v2, generated from spec/dist/payroll.json.
 *
 * `paths` and `operations` are what openapi-fetch consumes; the helpers below name the
 * request and response bodies of one operation by its operationId.
 */
import type { components, operations, Readable, servedVersions, Writable } from './generated/payroll.js';
import type { ListItemOf, PathParamsOf, QueryOf, RequestBodyOf, ResponseBodyOf } from './helpers.js';

export type { $defs, $Read, $Write, components, operations, paths, Readable, servedVersions, Writable } from './generated/payroll.js';
export type { JsonContent, JsonContentAt, JsonMediaKey, ListItemOf, PathParamsOf, QueryOf, RequestBodyOf, ResponseBodyOf } from './helpers.js';

/** Every operationId of the Payroll API. */
export type OperationId = keyof operations;
/** Every named schema of the Payroll API, as stored (with read/write markers). */
export type Schemas = components['schemas'];
/** A schema in its read shape (what responses carry). */
export type Schema<Name extends keyof Schemas> = Readable<Schemas[Name]>;
/** A schema in its write shape (readOnly fields absent). */
export type WriteSchema<Name extends keyof Schemas> = Writable<Schemas[Name]>;
/** The resource versions an operation serves (a union of `yyyy-MM-dd`). */
export type ServedVersion<Id extends OperationId> = Id extends keyof servedVersions ? servedVersions[Id][number] : never;
/** The newest resource version an operation serves: what the body and answer types follow by default. */
export type NewestVersion<Id extends OperationId> = Id extends keyof servedVersions ? servedVersions[Id][0] : never;
/** The resource versions of a registry resource (`'employee'`, …), newest first. */
export type ResourceVersions<Resource extends string> = `resource:${Resource}` extends keyof servedVersions ? servedVersions[`resource:${Resource}`] : never;

/** The body an operation sends, readOnly fields absent; at the newest version, or at an older `Version` it serves. */
export type RequestBody<Id extends OperationId, Version extends ServedVersion<Id> = NewestVersion<Id>> = RequestBodyOf<operations[Id], Version>;
/** The success body an operation returns (its JSON envelope); at the newest version, or at an older `Version` it serves. */
export type ResponseBody<Id extends OperationId, Version extends ServedVersion<Id> = NewestVersion<Id>> = ResponseBodyOf<operations[Id], 200 | 201, Version>;
/** The item of a list operation's `_embedded`, at the newest version or at `Version`. */
export type ListItem<Id extends OperationId, Version extends ServedVersion<Id> = NewestVersion<Id>> = ListItemOf<ResponseBody<Id, Version>>;
/** The query parameters of an operation. */
export type Query<Id extends OperationId> = QueryOf<operations[Id]>;
/** The path parameters of an operation. */
export type PathParams<Id extends OperationId> = PathParamsOf<operations[Id]>;
/** A message of an envelope (warnings and errors). */
export type Message = Schema<'Message'>;
/** The version object of an envelope. */
export type Version = Schema<'Version'>;
