import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const specDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export type OpenApiDocument = {
  paths: Record<string, Record<string, any>>;
  components?: Record<string, Record<string, any>>;
  [key: string]: any;
};

export function loadBundle(api: 'payroll' | 'journal'): OpenApiDocument {
  return JSON.parse(fs.readFileSync(path.join(specDir, 'dist', `${api}.json`), 'utf8'));
}

export interface OperationRef {
  path: string;
  method: string;
  operation: any;
  pathItem: any;
}

export function operationsOf(doc: OpenApiDocument): OperationRef[] {
  const result: OperationRef[] = [];
  for (const [p, pathItem] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      if (pathItem[method]) result.push({ path: p, method, operation: pathItem[method], pathItem });
    }
  }
  return result;
}

/** Follows one local `$ref` (`#/components/...`) if the node is a reference. */
export function deref<T = any>(doc: OpenApiDocument, node: any): T {
  let current = node;
  while (current && typeof current.$ref === 'string' && current.$ref.startsWith('#/')) {
    current = current.$ref
      .slice(2)
      .split('/')
      .map((s: string) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce((acc: any, key: string) => acc?.[key], doc);
  }
  return current as T;
}

/** The `version=` parameter of a media type key, or undefined. */
export function versionOf(mediaType: string): string | undefined {
  return /;\s*version=(\d{4}-\d{2}-\d{2})/.exec(mediaType)?.[1];
}
