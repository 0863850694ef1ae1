// @payroll-api/mock: a mock server for the Payroll and HR API v2 and the Journal
// configuration API that behaves like the contract, built on Prism.
export { createMock, startMock } from './server.js';
export type { Mock, MockOptions, RunningMock } from './server.js';
export type { Message, MessageType, VersionInfo } from './errors.js';
export { SandboxError } from './sandbox/engine/types.js';
export type { Handler, OperationContext, Reply, ResourceModule } from './sandbox/engine/types.js';
