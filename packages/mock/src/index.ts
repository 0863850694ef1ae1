// @payroll-api/mock: the Node server and command line of the sandbox (@payroll-api/sandbox)
// for the Payroll and HR API v2 and the Journal configuration API, with Prism's examples mode.
export { createMock, startMock } from './server.js';
export type { Mock, MockOptions, RunningMock } from './server.js';
export { SandboxError } from '@payroll-api/sandbox/engine';
export type { Handler, Message, MessageType, OperationContext, Reply, ResourceModule, VersionInfo } from '@payroll-api/sandbox/engine';
