// The parts of Prism's operation model (from @stoplight/types) this package reads. Declared
// here so that the published types do not depend on Prism's internal type packages.
export interface MediaContent {
  mediaType: string;
  schema?: Record<string, unknown>;
  examples?: Array<{ key: string; value?: unknown }>;
}

export interface HttpParam {
  name: string;
  required?: boolean;
  schema?: Record<string, unknown>;
}

export interface HttpResponse {
  code: string;
  contents?: MediaContent[];
  headers?: HttpParam[];
}

export interface HttpOperation {
  id: string;
  iid?: string;
  method: string;
  path: string;
  request?: {
    body?: { required?: boolean; contents?: MediaContent[] };
    headers?: HttpParam[];
    query?: HttpParam[];
    path?: HttpParam[];
  };
  responses: HttpResponse[];
  [key: string]: unknown;
}

export interface Violation {
  path?: string[];
  code?: string | number;
  message: string;
  severity: number;
}

export interface PrismOutput {
  statusCode: number;
  headers?: Record<string, unknown>;
  body?: unknown;
}
