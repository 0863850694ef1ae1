import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorNotice } from './ErrorNotice.js';

/**
 * A query's loading and error states, and its data through `children`. A refetch in the
 * background (after a write invalidated the query) keeps the data on screen; "Try again"
 * shows the loading state while it refetches.
 */
export function QueryState<T>({ query, loading, children }: { query: UseQueryResult<T>; loading: string; children: (data: T) => ReactNode }) {
  if (query.isPending || (query.isError && query.isFetching)) return <p role="status">{loading}</p>;
  if (query.isError) return <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />;
  return children(query.data);
}
