/**
 * Loading data: `useApi(key, fetcher)` runs the fetcher, caches the answer under `key`, shares a
 * request between components that ask for the same key at once, and shows cached data at once
 * while refetching. `invalidate()` after a write makes every mounted query fetch again, which is
 * simple and keeps the screen consistent with the ledger.
 */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';

const cache = new Map<string, unknown>();
const pending = new Map<string, Promise<unknown>>();
const listeners = new Set<() => void>();
let generation = 0;

export function invalidate(): void {
  cache.clear();
  pending.clear();
  generation += 1;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function load<T>(key: string, fetcher: () => Promise<T>): Promise<T> {
  const existing = pending.get(key);
  if (existing) return existing as Promise<T>;
  const promise = fetcher().then(
    (value) => {
      if (pending.get(key) === promise) {
        cache.set(key, value);
        pending.delete(key);
      }
      return value;
    },
    (error: unknown) => {
      if (pending.get(key) === promise) pending.delete(key);
      throw error;
    },
  );
  pending.set(key, promise);
  return promise;
}

export interface ApiState<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** `key` null means "not yet" (a parameter is missing): nothing is fetched. */
export function useApi<T>(key: string | null, fetcher: () => Promise<T>): ApiState<T> {
  const currentGeneration = useSyncExternalStore(subscribe, () => generation);
  const fetcherRef = useRef(fetcher);
  fetcherRef.current = fetcher;
  const [state, setState] = useState<{ key: string | null; data: T | undefined; error: unknown; loading: boolean }>(() => ({
    key, data: key !== null ? (cache.get(key) as T | undefined) : undefined, error: undefined, loading: key !== null && !cache.has(key),
  }));
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    if (key === null) {
      setState({ key, data: undefined, error: undefined, loading: false });
      return;
    }
    let cancelled = false;
    const cached = cache.get(key) as T | undefined;
    setState((previous) => ({
      key, data: cached ?? (previous.key === key ? previous.data : undefined), error: undefined, loading: true,
    }));
    load(key, () => fetcherRef.current()).then(
      (data) => { if (!cancelled) setState({ key, data, error: undefined, loading: false }); },
      (error: unknown) => { if (!cancelled) setState((previous) => ({ key, data: previous.key === key ? previous.data : undefined, error, loading: false })); },
    );
    return () => {
      cancelled = true;
    };
  }, [key, currentGeneration, reloads]);

  const matches = state.key === key;
  return {
    data: matches ? state.data : (key !== null ? (cache.get(key) as T | undefined) : undefined),
    error: matches ? state.error : undefined,
    loading: matches ? state.loading : key !== null,
    reload: () => {
      if (key !== null) {
        cache.delete(key);
        pending.delete(key);
      }
      setReloads((count) => count + 1);
    },
  };
}
