// The two clients: openapi-fetch clients typed by the generated paths, with the transport
// (auth, retries, timeouts, inspection) and the resource version of every payroll request.
import * as openapiFetch from 'openapi-fetch';
import type { Client, Middleware } from 'openapi-fetch';
import type { OperationInfo } from './errors.js';
import { journalOperations, payrollOperations } from './generated/operations.js';
import { Outgoing, createTransport, type TransportOptions } from './transport.js';
import type { JournalMedia, JournalPaths, PayrollMedia, PayrollPaths, PayrollPathsAnyVersion } from './types.js';
import { checkVersionDate, pickVersion, withVersion } from './versions.js';

export type Environment = 'acceptance' | 'production';

/**
 * Where the API is. The contract does not show the environments' hosts, so an environment
 * is always given together with its host; or give the full baseUrl.
 */
export type Location =
  | { environment: Environment; host: string; baseUrl?: never }
  | { baseUrl: string; environment?: never; host?: never };

export type ClientOptions = Location &
  TransportOptions & {
    /** Headers sent with every request (Authorization comes from `auth`, which wins). */
    headers?: Record<string, string>;
  };

export type PayrollClientOptions = ClientOptions & {
  /**
   * `yyyy-MM-dd`: send, per operation, the newest served version dated on or before this
   * date. Without it, the versions this package was generated for (the newest).
   */
  resourceVersionDate?: string;
};

export type PayrollClient = Client<PayrollPaths, PayrollMedia>;
export type PayrollClientAnyVersion = Client<PayrollPathsAnyVersion, PayrollMedia>;
export type JournalClient = Client<JournalPaths, JournalMedia>;

const EXPORT = 2;
// openapi-fetch's CommonJS build sets `exports.default` without `__esModule`, so from require()
// the namespace's default is the exports object itself; from import it is the function.
type CreateClient = typeof openapiFetch.default;
const namespaceDefault = openapiFetch.default as CreateClient | { default: CreateClient };
const createClient: CreateClient = typeof namespaceDefault === 'function' ? namespaceDefault : namespaceDefault.default;
const ENVIRONMENTS: readonly string[] = ['acceptance', 'production'];

function baseUrlOf(options: ClientOptions, suffix: '/v2' | ''): string {
  const o = (options ?? {}) as { environment?: string; host?: string; baseUrl?: string };
  if (o.baseUrl !== undefined) {
    if (o.environment !== undefined || o.host !== undefined) {
      throw new TypeError('give either baseUrl, or environment with host, not both');
    }
    if (!/^https?:\/\/[^/?#\s]+/.test(o.baseUrl)) {
      throw new TypeError(`baseUrl must be an absolute http(s) URL, got ${JSON.stringify(o.baseUrl)}`);
    }
    const base = o.baseUrl.replace(/\/+$/, '');
    if (suffix && !base.endsWith(suffix)) {
      throw new TypeError(`baseUrl must be the host followed by ${suffix} (the API version), e.g. https://host${suffix}`);
    }
    return base;
  }
  if (!o.environment || !ENVIRONMENTS.includes(o.environment)) {
    throw new TypeError('give baseUrl, or environment (acceptance or production) with its host');
  }
  if (!o.host || !/^[A-Za-z0-9.-]+(:\d{1,5})?$/.test(o.host)) {
    throw new TypeError(`environment ${o.environment} needs its host (a host name, e.g. api.example.nl); the contract does not show the hosts`);
  }
  return `https://${o.host}${suffix}`;
}

function build(
  options: ClientOptions,
  baseUrl: string,
  describe: (method: string, schemaPath: string, accept: string | null) => [OperationInfo, string, string?],
) {
  // What a JSON call sends depends only on its method and path: computed once per operation.
  const described = new Map<string, [OperationInfo, string, string?]>();
  const send = createTransport(options);
  const client = createClient<never>({
    baseUrl,
    headers: options.headers,
    // openapi-fetch hands its fetch what its Request option builds: an Outgoing.
    Request: Outgoing as unknown as typeof Request,
    fetch: send as unknown as (request: Request) => Promise<Response>,
  });
  const versioning: Middleware = {
    onRequest({ request, schemaPath }) {
      const accept = request.headers.get('accept');
      const key = `${request.method} ${schemaPath}`;
      let found = accept === null ? described.get(key) : undefined;
      if (!found) {
        found = describe(request.method, schemaPath, accept);
        if (accept === null) described.set(key, found);
      }
      const [info, acceptValue, contentType] = found;
      request.headers.set('Accept', acceptValue);
      // Versions the JSON body openapi-fetch serialised; other bodies keep their own type.
      if (contentType && request.body && request.headers.get('content-type') === 'application/json') {
        request.headers.set('Content-Type', contentType);
      }
      (request as unknown as Outgoing).info = info;
    },
  };
  client.use(versioning);
  return client;
}

type Table = Readonly<Record<string, readonly (string | number | readonly string[])[]>>;

/**
 * The table entry of a call and the Accept it sends: JSON unless the caller asked for an
 * export media type, which only exporting lists accept.
 */
function lookup(table: Table, api: string, method: string, schemaPath: string, accept: string | null, flagsAt: number) {
  const entry = table[`${method} ${schemaPath}`];
  if (!entry) throw new TypeError(`${method} ${schemaPath} is not an operation of the ${api} API`);
  const media = accept && accept !== '*/*' ? accept : 'application/json';
  if (!media.startsWith('application/json') && !((entry[flagsAt] as number) & EXPORT)) {
    throw new TypeError(`${entry[0]} offers no export (${media})`);
  }
  return { entry, media };
}

/** A client of the Payroll and HR API v2. */
export function createPayrollClient(options: PayrollClientOptions & { resourceVersionDate: string }): PayrollClientAnyVersion;
export function createPayrollClient(options: PayrollClientOptions): PayrollClient;
export function createPayrollClient(options: PayrollClientOptions): PayrollClient | PayrollClientAnyVersion {
  const date = checkVersionDate(options?.resourceVersionDate);
  const baseUrl = baseUrlOf(options, '/v2');
  return build(options, baseUrl, (method, schemaPath, accept) => {
    const { entry, media } = lookup(payrollOperations, 'Payroll', method, schemaPath, accept, 2);
    const [operation, resource, , versions] = entry as [string, string, number, readonly string[]];
    const version = pickVersion(versions, date, operation);
    return [
      { operation, method, path: schemaPath, resource, version },
      withVersion(media, version),
      `application/json;version=${version}`,
    ];
  }) as PayrollClient;
}

/** A client of the Journal configuration API (not versioned: plain application/json). */
export function createJournalClient(options: ClientOptions): JournalClient {
  const baseUrl = baseUrlOf(options, '');
  return build(options, baseUrl, (method, schemaPath, accept) => {
    const { entry, media } = lookup(journalOperations, 'Journal', method, schemaPath, accept, 1);
    return [{ operation: entry[0] as string, method, path: schemaPath }, media];
  }) as JournalClient;
}
