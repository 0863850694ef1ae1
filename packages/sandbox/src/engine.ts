// @payroll-api/sandbox/engine: the parts a server builds on (the Node server of
// @payroll-api/mock does): the shared request pipeline, the sandbox responder over a store of
// its choice, the description loader, the store interface with its memory implementation and
// the SQL compilation of filters, and what the examples responder reuses.
export { corsHeaders, createPipeline, EXPOSED_HEADERS, HEALTH_PATH, type PipelineOptions, type PipelineResult } from './engine/pipeline.js';
export type { BodyRead, SandboxRequest } from './http/request.js';
export { fromFetchRequest } from './http/request.js';
export { pathnameOf } from './http/route.js';
export { toFetchResponse } from './http/response.js';
export { createSandboxResponder, type SandboxResponder, type SandboxResponderOptions, type StoreFactory } from './responder/responder.js';
export { essence, loadApi, successContents, type ApiName, type LoadedApi, type Operation } from './http/spec.js';
export type { HttpOperation, MediaContent, Violation } from './http/operation.js';
export { envelope, message, type Message, type MessageType, type VersionInfo } from './http/errors.js';
export { badRequest, errorReply, isOutgoing, json, type Headers, type Outgoing } from './http/outgoing.js';
export { download, successHeaders, type Exchange, type Responder } from './http/respond.js';
export { AUTHORIZATION_HEADER } from './http/authorize.js';
export { REQUEST_ID_HEADER, requestIdOf } from './http/request-id.js';
export { listItems } from './http/export.js';
export { isJsonMedia } from './http/media.js';
export { parsePreferences, PREFER_QUERY } from './http/prefer.js';
export { MemoryStore, snapshotOf, stateFromSnapshot, type Change, type CommitLog, type SandboxState } from './store/memory.js';
export { cloneJson } from './store/clone.js';
export { Slices } from './util/slices.js';
export { parseJsonBytes, type JsonRead } from './http/json-body.js';
export { CollectionScan } from './store/scan.js';
export * from './store/types.js';
export { DATE_TIME_PATTERN } from './filter/evaluate.js';
export { SqlParams, comparable, compileFilter, compileOrderBy, foldCase, instantFunctionSql, ordered, orderTerms, plainJsonPath, type SqlDialect } from './filter/sql.js';
export { SandboxError, type Handler, type OperationContext, type Principal, type Reply, type ResourceModule } from './domain/context.js';
export { seedSnapshot } from './seed/index.js';
export { SEED_IDS } from './seed/ids.js';
export { FAULT_HEADER, FAULTS_PATH, type FaultRule } from './faults/faults.js';
export { ACCESS_PREFIX, ACCESS_TOKENS, AUTH_SANDBOX, lookupAccessToken, pruneExpired, REFRESH_TOKENS, userSandbox, type AccessToken, type RefreshToken } from './auth/tokens.js';
export { tenantPrefix, tenantPrefixOf } from './auth/tenants.js';
