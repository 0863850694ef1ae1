// The two clients: openapi-fetch clients typed by the generated paths, with the transport
// (auth, retries, timeouts, inspection) and the resource version of every payroll request.
import * as openapiFetch from 'openapi-fetch';
import type { Client } from 'openapi-fetch';
import type { AnyMessage, JournalMessage, Message, OperationInfo } from './errors.js';
import { journalOperations, payrollOperations } from './generated/operations.js';
import { ABSOLUTE_URL } from './auth.js';
import { createTransport, type Outgoing, type TransportOptions } from './transport.js';
import type { ActivityCalls, JournalMedia, JournalPaths, PayrollMedia, PayrollPaths, PayrollPathsAnyVersion, PayrollPathsAt } from './types.js';
import { toIsoDate } from './dates.js';
import { pickVersion, VERSION_PARAMETER, withVersion } from './versions.js';

export type Environment = 'acceptance' | 'production';

/**
 * Where the API is. The contract does not show the environments' hosts, so an environment
 * is always given together with its host; or give the full baseUrl.
 */
export type Location =
  | { environment: Environment; host: string; baseUrl?: never }
  | { baseUrl: string; environment?: never; host?: never };

export type ClientOptions<M extends AnyMessage = AnyMessage> = Location &
  TransportOptions<M> & {
    /** Headers sent with every request (Authorization comes from `auth`, which wins). */
    headers?: Record<string, string>;
  };

/** Options of the journal client: its messages carry the journal's codes. */
export type JournalClientOptions = ClientOptions<JournalMessage>;

export type PayrollClientOptions = ClientOptions<Message> & {
  /**
   * `yyyy-MM-dd`: send, per operation, the newest served version dated on or before this
   * date. Without it, the versions this package was generated for (the newest).
   */
  resourceVersionDate?: string;
};

/** An openapi-fetch client with one method per activity (operationId) besides GET, PUT, … */
export type PayrollClient = Client<PayrollPaths, PayrollMedia> & ActivityCalls<PayrollPaths, PayrollMedia> & { readonly resourceVersionDate?: undefined };
/** A payroll client given a resourceVersionDate, which it keeps (query keys include it). */
export type PayrollClientAnyVersion = Client<PayrollPathsAnyVersion, PayrollMedia> &
  ActivityCalls<PayrollPathsAnyVersion, PayrollMedia> & { readonly resourceVersionDate: string };
/**
 * A client given a literal resourceVersionDate: each operation's types follow the version it
 * sends at run time (the newest dated on or before it); a date known only at run time types
 * every served version (PayrollClientAnyVersion).
 */
export type PayrollClientAt<VersionDate extends string> = string extends VersionDate
  ? PayrollClientAnyVersion
  : Client<PayrollPathsAt<VersionDate>, PayrollMedia> & ActivityCalls<PayrollPathsAt<VersionDate>, PayrollMedia> & { readonly resourceVersionDate: VersionDate };
export type JournalClient = Client<JournalPaths, JournalMedia> & ActivityCalls<JournalPaths, JournalMedia>;

const EXPORT = 2;
const BODY = 4;
// openapi-fetch's CommonJS build sets `exports.default` without `__esModule`, so from require()
// the namespace's default is the exports object itself; from import it is the function.
type CreateClient = typeof openapiFetch.default;
const namespaceDefault = openapiFetch.default as CreateClient | { default: CreateClient };
const createClient: CreateClient = typeof namespaceDefault === 'function' ? namespaceDefault : namespaceDefault.default;

function baseUrlOf(options: Location, suffix: '/v2' | ''): string {
  const o = (options ?? {}) as { environment?: string; host?: string; baseUrl?: string };
  if (o.baseUrl !== undefined) {
    if (o.environment !== undefined || o.host !== undefined) {
      throw new TypeError('give either baseUrl, or environment with host, not both');
    }
    if (!ABSOLUTE_URL.test(o.baseUrl)) {
      throw new TypeError(`baseUrl must be an absolute http(s) URL, got ${JSON.stringify(o.baseUrl)}`);
    }
    const base = o.baseUrl.replace(/\/+$/, '');
    if (suffix && !base.endsWith(suffix)) {
      throw new TypeError(`baseUrl must be the host followed by ${suffix}, e.g. https://host${suffix}`);
    }
    return base;
  }
  if (!/^(acceptance|production)$/.test(o.environment!)) {
    throw new TypeError('give baseUrl, or environment (acceptance or production) with its host');
  }
  if (!o.host || !/^[A-Za-z0-9.-]+(:\d{1,5})?$/.test(o.host)) {
    // The contract does not show the hosts; the scheme is always https.
    throw new TypeError(`environment ${o.environment}: host must be a host name without a scheme, e.g. api.example.nl (got ${JSON.stringify(o.host)})`);
  }
  return `https://${o.host}${suffix}`;
}

function build<M extends AnyMessage>(
  options: ClientOptions<M>,
  baseUrl: string,
  table: Table,
  flagsAt: number,
  describe: (method: string, schemaPath: string, accept: string | null) => [OperationInfo, string, string?],
) {
  // What a JSON call sends depends only on its method and path: computed once per operation,
  // found by method, then by path (the path as the caller wrote it: no key to build and hash).
  const described: Record<string, Map<string, [OperationInfo, string, string?]>> = {};
  // The schema path of the call being made, set by the wrappers below.
  let schemaPath: string | undefined;
  /**
   * What openapi-fetch builds for a call (its `Request` option): the parts of a Request without
   * constructing one, so that each call builds exactly one real Request, inside fetch. It is
   * built synchronously inside the call, so the call is versioned here, before any middleware
   * runs, and without a middleware of our own (each would cost every call a promise and more).
   */
  class Call implements Outgoing {
    // `declare`: assigned in the constructor, no separate field definitions in the output.
    declare readonly url: string;
    declare readonly method: string;
    declare readonly headers: Headers;
    declare readonly body: BodyInit | null;
    declare readonly signal: AbortSignal | null;
    declare readonly init: RequestInit;
    declare readonly info: OperationInfo;
    // openapi-fetch always gives the method, in upper case, and the merged headers as Headers.
    constructor(url: string, init: RequestInit & { method: string; headers: Headers }) {
      const { method, headers } = init;
      const accept = headers.get('accept');
      const known = (described[method] ??= new Map());
      let found = accept === null ? known.get(schemaPath!) : undefined;
      if (!found) {
        found = describe(method, schemaPath!, accept);
        if (accept === null) known.set(schemaPath!, found);
      }
      const [info, acceptValue, contentType] = found;
      headers.set('Accept', acceptValue);
      // Versions the JSON body openapi-fetch serialised; other bodies keep their own type.
      if (contentType && init.body && headers.get('content-type') === 'application/json') {
        headers.set('Content-Type', contentType);
      }
      this.url = url;
      this.method = method;
      this.headers = headers;
      this.body = init.body ?? null;
      this.signal = init.signal ?? null;
      this.init = init;
      this.info = info;
    }
  }
  const client = createClient<never>({
    baseUrl,
    headers: options.headers,
    Request: Call as unknown as typeof Request,
    fetch: createTransport(options) as unknown as (request: Request) => Promise<Response>,
  });
  // openapi-fetch's calls (`request(method, path, init)` and one per HTTP method), wrapped to
  // tell the request being built which schema path it is for. The outer path is restored, so
  // a call made while another is being built (from a body serializer, say) leaves it intact.
  const calls = client as unknown as Record<string, (a?: unknown, b?: unknown, c?: unknown) => unknown>;
  for (const name in client) {
    // `request` and one call per HTTP method (GET, PUT, …); not `use` and `eject`.
    if (name !== 'request' && name !== name.toUpperCase()) continue;
    const call = calls[name]!;
    calls[name] = (a, b, c) => {
      const outer = schemaPath;
      schemaPath = (name === 'request' ? b : a) as string;
      const result = call(a, b, c);
      schemaPath = outer;
      return result;
    };
  }
  // Calls by activity name, one per operation of the table (closures over its route, not
  // generated functions): `payroll.GetEmployeesByEmployerId({ employerId, pageSize })`.
  for (const route in table) {
    const [method, path] = route.split(' ') as [string, string];
    const body = (table[route]![flagsAt] as number) & BODY;
    const inPath: string[] = path.match(/[^{}]+(?=})/g) ?? [];
    calls[table[route]![0] as string] = ((params: Record<string, unknown> = {}, second?: object, third?: object) => {
      // Path parameters are the ones the path names; every other parameter is a query one.
      const split = { path: {} as Record<string, unknown>, query: {} as Record<string, unknown> };
      for (const key in params) split[inPath.includes(key) ? 'path' : 'query'][key] = params[key];
      return calls[method]!(path, body ? { ...third, params: split, body: second } : { ...second, params: split });
    }) as (typeof calls)[string];
  }
  return client;
}

type Table = Readonly<Record<string, readonly (string | number | readonly string[])[]>>;

/**
 * The table entry of a call and the Accept it sends: JSON unless the caller asked for an
 * export media type, which only exporting lists accept.
 */
function lookup(table: Table, method: string, schemaPath: string, accept: string | null, flagsAt: number) {
  const entry = table[`${method} ${schemaPath}`];
  if (!entry) throw new TypeError(`${method} ${schemaPath} is not an operation of this API`);
  const media = accept && accept !== '*/*' ? accept : 'application/json';
  if (!media.startsWith('application/json') && !((entry[flagsAt] as number) & EXPORT)) {
    throw new TypeError(`${entry[0]} offers no export (${media})`);
  }
  return [entry, media] as const;
}

/** A client of the Payroll and HR API v2. */
export function createPayrollClient<const VersionDate extends string>(options: PayrollClientOptions & { resourceVersionDate: VersionDate }): PayrollClientAt<VersionDate>;
export function createPayrollClient(options: PayrollClientOptions): PayrollClient;
export function createPayrollClient(options: PayrollClientOptions): PayrollClient | PayrollClientAnyVersion | PayrollClientAt<string> {
  const given = options?.resourceVersionDate;
  const date = given === undefined ? given : toIsoDate(given, 'resourceVersionDate');
  const baseUrl = baseUrlOf(options, '/v2');
  const client = build(options, baseUrl, payrollOperations, 2, (method, schemaPath, accept) => {
    const [entry, media] = lookup(payrollOperations, method, schemaPath, accept, 2);
    const [operation, resource, , versions] = entry as [string, string, number, readonly string[]];
    // A caller's Accept that names a version is sent as it is; any other gets the client's.
    const version = VERSION_PARAMETER.exec(media)?.[1] ?? pickVersion(versions, date, operation);
    return [{ operation, method, path: schemaPath, resource, version }, withVersion(media, version), withVersion('application/json', version)];
  });
  // Kept on the client: query keys include it.
  if (date) (client as { resourceVersionDate?: string }).resourceVersionDate = date;
  return client as PayrollClient | PayrollClientAnyVersion;
}

/** A client of the Journal configuration API (not versioned: plain application/json). */
export function createJournalClient(options: JournalClientOptions): JournalClient {
  const baseUrl = baseUrlOf(options, '');
  return build(options, baseUrl, journalOperations, 1, (method, schemaPath, accept) => {
    const [entry, media] = lookup(journalOperations, method, schemaPath, accept, 1);
    return [{ operation: entry[0] as string, method, path: schemaPath }, media];
  }) as JournalClient;
}
