export { createPayrollClient, createJournalClient } from './client.js';
export type {
  ClientOptions,
  Environment,
  JournalClient,
  JournalClientOptions,
  Location,
  PayrollClient,
  PayrollClientAnyVersion,
  PayrollClientAt,
  PayrollClientOptions,
} from './client.js';
export { paginate } from './paginate.js';
export type { ListActivities, ListInit, ListItemAt, ListPaths } from './paginate.js';
export { and, filterDate, filterFor, or, orderBy, where } from './filter.js';
export type { FieldPath, FieldType, FilterBuilder, FilterDate, FilterExpr, FilterOperator, FilterValue, OrderField, ValueFor } from './filter.js';
export { exportList, fileNameOf, reportInputHeader } from './export.js';
export type { ExportActivities, ExportFormat, ExportPaths, ExportResult, ReportInput } from './export.js';
export { ApiError, messagesByEntity, messagesOf, unwrap } from './errors.js';
export type { AnyMessage, JournalMessage, JournalMessageCode, KnownJournalCode, Message, MessageOf, MessageType, OperationInfo } from './errors.js';
export { TimeoutError } from './transport.js';
export type { DeprecationEvent, PartialFailureEvent, RetryOptions, TransportOptions, WarningEvent } from './transport.js';
export { AuthError, passwordGrant, refreshTokenGrant } from './auth.js';
export type { Auth, FetchLike, OAuthSession, PasswordGrantOptions, RefreshTokenGrantOptions, TokenRequest, TokenSource } from './auth.js';
export type {
  ActivitiesOf,
  ActivityArgs,
  ActivityBody,
  ActivityCall,
  ActivityCalls,
  ActivityInit,
  ActivityOperation,
  ActivityParams,
  ActivityPath,
  ActivityRoutes,
  BodyShape,
  JournalPaths,
  PayrollPaths,
  PayrollPathsAnyVersion,
  PayrollPathsAt,
  OnOrBefore,
  PickVersion,
  ReadOnlyField,
  VersionAt,
  VersionedPaths,
} from './types.js';
