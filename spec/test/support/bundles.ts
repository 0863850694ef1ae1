import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deref, mediaTypeVersion, operationsOf as eachOperation, type OperationEntry } from '@payroll-api/openapi-bundle';

export const specDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export type OpenApiDocument = {
  paths: Record<string, Record<string, any>>;
  components?: Record<string, Record<string, any>>;
  [key: string]: any;
};

export function loadBundle(api: 'payroll' | 'journal' | 'sandbox-control'): OpenApiDocument {
  return JSON.parse(fs.readFileSync(path.join(specDir, 'dist', `${api}.json`), 'utf8'));
}

/** Every operation of a bundle, in path order then method order. */
export function operationsOf(doc: OpenApiDocument): OperationEntry[] {
  return [...eachOperation(doc)];
}

export { deref, mediaTypeVersion as versionOf };

