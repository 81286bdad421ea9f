/**
 * A small router over the History API: the app has a dozen fixed routes, which does not justify
 * a routing library. Paths are matched against patterns such as `/accounts/:id`.
 */
import { type AnchorHTMLAttributes, type MouseEvent, useSyncExternalStore } from 'react';

type Listener = () => void;
const listeners = new Set<Listener>();

function notify(): void {
  for (const listener of listeners) listener();
}
window.addEventListener('popstate', notify);

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export interface Location {
  pathname: string;
  search: string;
}

let cached: Location = { pathname: window.location.pathname, search: window.location.search };
function snapshot(): Location {
  const { pathname, search } = window.location;
  if (cached.pathname !== pathname || cached.search !== search) cached = { pathname, search };
  return cached;
}

export function useLocation(): Location {
  return useSyncExternalStore(subscribe, snapshot);
}

export function useSearchParams(): URLSearchParams {
  const { search } = useLocation();
  return new URLSearchParams(search);
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const current = window.location.pathname + window.location.search;
  if (to === current) return;
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  if (!options.replace) window.scrollTo(0, 0);
  notify();
}

/** Replaces the query string (for filters and report parameters), keeping the path. */
export function setSearchParams(values: Record<string, string | undefined | null>, options: { replace?: boolean } = { replace: true }): void {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, value);
  }
  const text = params.toString();
  navigate(`${window.location.pathname}${text ? `?${text}` : ''}`, options);
}

/** Returns the named parameters when `pathname` matches `pattern`, else null. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  const patternParts = pattern.split('/').filter(Boolean);
  const pathParts = pathname.replace(/\/+$/, '').split('/').filter(Boolean);
  if (patternParts.length !== pathParts.length) return null;
  const params: Record<string, string> = {};
  for (let index = 0; index < patternParts.length; index += 1) {
    const expected = patternParts[index]!;
    const actual = pathParts[index]!;
    if (expected.startsWith(':')) params[expected.slice(1)] = decodeURIComponent(actual);
    else if (expected !== actual) return null;
  }
  return params;
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { to: string };

/** An ordinary link (so open-in-new-tab and the keyboard work) that navigates in place on a plain click. */
export function Link({ to, onClick, ...rest }: LinkProps) {
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (rest.target && rest.target !== '_self') return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={handleClick} {...rest} />;
}
