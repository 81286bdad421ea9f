/**
 * A form's action bar that sticks to the bottom of the window (`.form-actions--sticky`) publishes
 * its height as `--sticky-bar-height` on the document, so that what must stay in view above it
 * (the entry form's totals, the focus when tabbing, the toasts) sits just above it whatever its
 * height: it wraps onto two or three lines on a phone.
 */
import { type RefObject, useLayoutEffect } from 'react';

export function useStickyBarHeight(bar: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const element = bar.current;
    if (!element) return undefined;
    const root = document.documentElement;
    const publish = () => root.style.setProperty('--sticky-bar-height', `${Math.ceil(element.getBoundingClientRect().height)}px`);
    publish();
    const observer = new ResizeObserver(publish);
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--sticky-bar-height');
    };
  }, [bar]);
}
