import { useCallback, useEffect, useState } from 'react';

export type Load<T> = { state: 'loading' } | { state: 'error'; error: unknown } | { state: 'ready'; data: T };

/** Runs `load` whenever `key` changes (and on reload()); an answer to an older key is dropped. */
export function useLoad<T>(load: () => Promise<T>, key: string): Load<T> & { reload: () => void } {
  const [result, setResult] = useState<Load<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setResult({ state: 'loading' });
    load().then(
      (data) => current && setResult({ state: 'ready', data }),
      (error: unknown) => current && setResult({ state: 'error', error }),
    );
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` names everything `load` reads
  }, [key, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { ...result, reload };
}
