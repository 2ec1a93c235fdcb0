import { useCallback, useEffect, useState } from 'react';
import { api } from '../../app/public';
import { errorText } from './auth-api';

/**
 * What an account dialog shows, read from `path` each time the dialog opens (and again on `load`);
 * a refusal goes to the dialog's error banner through `setError`.
 */
export function useLoadOnOpen<T>(open: boolean, path: string, setError: (message: string) => void) {
  const [data, setData] = useState<T>();
  const load = useCallback(async () => {
    try {
      setData(await api<T>(path, { quiet: true }));
    } catch (e) {
      setError(errorText(e));
    }
  }, [path, setError]);

  useEffect(() => {
    if (open) void load();
  }, [open, load]);

  return { data, setData, load };
}
