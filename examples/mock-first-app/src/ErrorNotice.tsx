import { describeError } from './api.js';

export function ErrorNotice({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  return (
    <div role="alert" className="error">
      {describeError(error)} {onRetry && <button onClick={onRetry}>Try again</button>}
    </div>
  );
}
