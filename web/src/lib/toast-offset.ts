/** Where the toasts go so that they never cover a sticky action bar (lib/toast.tsx places them). */

/** The gap between the toasts and the window's edge or the bar, in px. */
const GAP_PX = 12;

/**
 * Where the toasts' bottom edge goes, in px from the window's bottom, given the window's height,
 * the toasts' height and the boxes of the bars to keep clear (`top`/`bottom` from the window's top).
 */
export function toastOffset(windowHeight: number, toastsHeight: number, bars: readonly { top: number; bottom: number }[]): number {
  let offset = GAP_PX;
  for (const bar of bars) {
    const visible = bar.bottom > 0 && bar.top < windowHeight;
    const overlaps = windowHeight - offset > bar.top && windowHeight - offset - toastsHeight < bar.bottom;
    if (!visible || !overlaps) continue;
    // Above the bar when there is room there. (Below it there is none: the toasts would not
    // overlap it at the window's bottom otherwise.) A bar taller than the window leaves no place.
    if (bar.top >= toastsHeight + 2 * GAP_PX) offset = windowHeight - bar.top + GAP_PX;
  }
  return offset;
}
