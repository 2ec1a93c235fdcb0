import { useState } from 'react';
import type { FormInstance } from 'antd';
import { applyFieldErrors, errorText } from './auth-api';

/**
 * Runs a form's server call with a busy flag; a refusal is shown on the named fields it concerns,
 * anything else in the form's error banner.
 */
export function useFormAction(form: FormInstance | undefined) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  async function run(work: () => Promise<void>, fields: string[] = []): Promise<void> {
    setBusy(true);
    setError(undefined);
    try {
      await work();
    } catch (e) {
      if (!form || !applyFieldErrors(form, e, fields)) setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }

  return { busy, error, setError, run };
}
