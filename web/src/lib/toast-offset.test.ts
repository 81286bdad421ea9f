import { describe, expect, it } from 'vitest';
import { toastOffset } from './toast-offset.js';

describe('where the toasts go', () => {
  it('sit at the bottom of the window when no bar is in the way', () => {
    expect(toastOffset(800, 50, [])).toBe(12);
    // A bar higher up the page, clear of the toasts' corner.
    expect(toastOffset(800, 50, [{ top: 100, bottom: 160 }])).toBe(12);
    // A bar below the window.
    expect(toastOffset(800, 50, [{ top: 900, bottom: 970 }])).toBe(12);
  });

  it('sit just above a bar stuck to the bottom of the window, however tall it is', () => {
    expect(toastOffset(800, 50, [{ top: 730, bottom: 800 }])).toBe(82);
    expect(toastOffset(844, 50, [{ top: 700, bottom: 844 }])).toBe(156);
  });

  it('stay at the bottom when a bar fills the window and leaves no room', () => {
    expect(toastOffset(300, 50, [{ top: 40, bottom: 300 }])).toBe(12);
  });
});
