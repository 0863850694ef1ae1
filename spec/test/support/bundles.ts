import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deref, operationsOf as eachOperation, type OperationEntry } from '@payroll-api/openapi-bundle';

export const specDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export type OpenApiDocument = {
  paths: Record<string, Record<string, any>>;
  components?: Record<string, Record<string, any>>;
  [key: string]: any;
};

export function loadBundle(api: 'payroll' | 'journal'): OpenApiDocument {
  return JSON.parse(fs.readFileSync(path.join(specDir, 'dist', `${api}.json`), 'utf8'));
}

/** Every operation of a bundle, in path order then method order. */
export function operationsOf(doc: OpenApiDocument): OperationEntry[] {
  return [...eachOperation(doc)];
}

export { deref };

/** The `version=` parameter of a media type key, or undefined. */
export function versionOf(mediaType: string): string | undefined {
  return /;\s*version=(\d{4}-\d{2}-\d{2})/.exec(mediaType)?.[1];
}
