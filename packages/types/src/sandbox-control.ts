/**
 * Types of the sandbox control API (`/__sandbox/*` and `POST /auth/token` of
 * `@payroll-api/mock`), generated from spec/dist/sandbox-control.json.
 *
 * `paths` is what openapi-fetch consumes; the helpers name the bodies of one operation by its
 * operationId.
 */
import type { components, operations } from './generated/sandbox-control.js';
import type { RequestBodyOf, ResponseBodyOf } from './helpers.js';

export type { components, operations, paths } from './generated/sandbox-control.js';

/** Every operationId of the control API, planned ones included (see `x-sandbox-status`). */
export type OperationId = keyof operations;
/** Every named schema of the control API. */
export type Schemas = components['schemas'];
/** The body an operation sends. */
export type RequestBody<Id extends OperationId> = RequestBodyOf<operations[Id]>;
/** The success body an operation returns. */
export type ResponseBody<Id extends OperationId> = ResponseBodyOf<operations[Id]>;

export type Snapshot = Schemas['Snapshot'];
export type ClockState = Schemas['ClockState'];
export type AuthorizationModel = Schemas['AuthorizationModel'];
export type ClientEntry = Schemas['ClientEntry'];
export type RightEntry = Schemas['RightEntry'];
export type RoleEntry = Schemas['RoleEntry'];
export type UserEntry = Schemas['UserEntry'];
export type ModuleEntry = Schemas['ModuleEntry'];
export type ModulesEntry = Schemas['ModulesEntry'];
export type Settings = Schemas['Settings'];
export type UnknownFields = Schemas['UnknownFields'];
