// Paging (contract 4.1 and 8): pageNumber defaults to 1, pageSize to 250; both at least 1.
// The list envelope's numbers agree: totalPages = ceil(totalSize / pageSize), and a page past
// the end is answered with an empty _embedded.
import { QueryError } from '../filter/tree.js';

export const DEFAULT_PAGE_SIZE = 250;

export interface Paging {
  pageNumber: number;
  pageSize: number;
}

function positive(query: URLSearchParams, name: 'pageNumber' | 'pageSize', fallback: number): number {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw.trim())) throw new QueryError(name, `${name} must be a whole number of at least 1, not '${raw}'.`);
  const value = Number(raw.trim());
  if (value < 1) throw new QueryError(name, `${name} must be at least 1, not ${value}.`);
  if (value > 2_147_483_647) throw new QueryError(name, `${name} must be at most 2147483647 (int32).`);
  return value;
}

export function pagingOf(query: URLSearchParams): Paging {
  return { pageNumber: positive(query, 'pageNumber', 1), pageSize: positive(query, 'pageSize', DEFAULT_PAGE_SIZE) };
}

export function totalPages(totalSize: number, pageSize: number): number {
  return Math.ceil(totalSize / pageSize);
}
