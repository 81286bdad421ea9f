/**
 * The busy and error state of a form and the one way its submission runs: the button shows busy
 * while the request is under way, and a failure is kept so the form can show it beside its field.
 */
import { useState } from 'react';

export function useSubmit() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const run = async (action: () => Promise<unknown>): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}
