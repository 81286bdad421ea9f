/**
 * How deeply a JSON text nests, measured on the text before it is parsed: no API body needs more
 * than a few levels (a batch's entries, their lines, an entry's metadata at most 8 deep), and a
 * body nested thousands of levels deep would only exhaust the stack of whatever walks it later
 * (validation, the idempotency fingerprint). One pass, brackets inside strings ignored.
 */
export const MAX_JSON_NESTING = 64;

/** True when some point of `text` is inside more than `limit` arrays and objects. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c /* \ */) index += 1;
      else if (char === 0x22 /* " */) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x5b /* [ */ || char === 0x7b /* { */) {
      depth += 1;
      if (depth > limit) return true;
    } else if (char === 0x5d /* ] */ || char === 0x7d /* } */) {
      depth -= 1;
    }
  }
  return false;
}
