/** Short confirmations ("Entry posted") announced politely to screen readers. */
import { useSyncExternalStore } from 'react';

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
  return (
    <div className="toasts no-print" aria-live="polite" aria-atomic="false">
      {items.map((item) => (
        <div key={item.id} className={`toast toast--${item.tone}`} data-testid="toast">
          <span>{item.message}</span>
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => dismiss(item.id)}>×</button>
        </div>
      ))}
    </div>
  );
}
