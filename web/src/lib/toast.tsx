/**
 * Short confirmations ("Entry posted") announced politely to screen readers, at the bottom right
 * of the window, and never over a sticky action bar (the entry form's "Post" buttons): while one
 * is in view, the toasts sit just above it, or below it when it is too near the top to leave room.
 */
import { useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import { toastOffset } from './toast-offset.js';

interface Toast {
  id: number;
  message: string;
  tone: 'success' | 'error';
}

/** More would pile up over the page when many things are saved in a row; the oldest make way. */
const MAX_SHOWN = 3;

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

export function toast(message: string, tone: Toast['tone'] = 'success'): void {
  const id = nextId;
  nextId += 1;
  toasts = [...toasts, { id, message, tone }].slice(-MAX_SHOWN);
  emit();
  setTimeout(() => dismiss(id), 5000);
}

function dismiss(id: number): void {
  toasts = toasts.filter((item) => item.id !== id);
  emit();
}

export function Toasts() {
  const items = useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, () => toasts);
  const container = useRef<HTMLDivElement>(null);
  const shown = items.length > 0;
  useLayoutEffect(() => {
    const element = container.current;
    if (!shown || !element) return undefined;
    const place = () => {
      const bars = [...document.querySelectorAll('.form-actions--sticky')].map((bar) => bar.getBoundingClientRect())
        .filter((rect) => rect.height > 0);
      element.style.bottom = `${toastOffset(window.innerHeight, element.getBoundingClientRect().height, bars)}px`;
    };
    place();
    window.addEventListener('scroll', place, { passive: true });
    window.addEventListener('resize', place);
    const observer = new ResizeObserver(place);
    observer.observe(element);
    for (const bar of document.querySelectorAll('.form-actions--sticky')) observer.observe(bar);
    // A form that grows (a line added) can make its bar stick to the window's bottom without a
    // scroll or a change of the bar's own size: the page's height changes then.
    observer.observe(document.body);
    return () => {
      window.removeEventListener('scroll', place);
      window.removeEventListener('resize', place);
      observer.disconnect();
      element.style.removeProperty('bottom');
    };
  }, [shown, items]);
  return (
    <div ref={container} className="toasts no-print" aria-live="polite" aria-atomic="false">
      {items.map((item) => (
        <div key={item.id} className={`toast toast--${item.tone}`} data-testid="toast">
          <span>{item.message}</span>
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => dismiss(item.id)}>×</button>
        </div>
      ))}
    </div>
  );
}
