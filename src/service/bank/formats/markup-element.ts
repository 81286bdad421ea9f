/**
 * The element tree both markup formats are read into: OFX 1.x SGML by our own reader
 * (`read-ofx-sgml.ts`), OFX 2.x and CAMT.053 XML by fast-xml-parser (`read-xml-document.ts`).
 * One small shape, so the OFX reader does not care which syntax the bank chose. Names are local
 * names (an XML namespace prefix removed); `text` is the element's own text, entities decoded.
 */
export interface MarkupElement {
  name: string;
  text: string;
  attributes: Readonly<Record<string, string>>;
  children: MarkupElement[];
  /** Where the element's `<` is in the file's text, for its line number. */
  offset: number;
}

export const NO_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze({});

export function child(parent: MarkupElement | undefined, name: string): MarkupElement | undefined {
  if (parent === undefined) return undefined;
  for (const element of parent.children) if (element.name === name) return element;
  return undefined;
}

export function children(parent: MarkupElement | undefined, name: string): MarkupElement[] {
  if (parent === undefined) return [];
  return parent.children.filter((element) => element.name === name);
}

/** The element at the end of `path` below `parent` (first match at each step). */
export function descend(parent: MarkupElement | undefined, ...path: string[]): MarkupElement | undefined {
  let element = parent;
  for (const name of path) element = child(element, name);
  return element;
}

/** The trimmed text at the end of `path`, or undefined when the element is absent or empty. */
export function textAt(parent: MarkupElement | undefined, ...path: string[]): string | undefined {
  const text = descend(parent, ...path)?.text.trim();
  return text === '' ? undefined : text;
}

/** Every element named one of `names` at any depth, in document order, not looking inside those found. */
export function findAll(root: MarkupElement, names: ReadonlySet<string>): MarkupElement[] {
  const found: MarkupElement[] = [];
  const pending: MarkupElement[] = [root];
  while (pending.length > 0) {
    const element = pending.pop() as MarkupElement;
    if (names.has(element.name) && element !== root) {
      found.push(element);
      continue;
    }
    for (let index = element.children.length - 1; index >= 0; index -= 1) pending.push(element.children[index] as MarkupElement);
  }
  return found;
}

const ENTITY = /&(?:#([0-9]{1,7})|#[xX]([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|apos));/g;
const NAMED_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * Decodes XML's five predefined entities and character references (`&#228;`, `&#xE4;`). Nothing
 * else: no entity a document declares is ever expanded (the readers refuse declarations), and an
 * unknown `&name;` or a bare `&` (OFX SGML files write "AT&T") stays as written.
 */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY, (whole, decimal?: string, hexadecimal?: string, name?: string) => {
    if (name !== undefined) return NAMED_ENTITIES[name] ?? whole;
    const code = decimal !== undefined ? Number.parseInt(decimal, 10) : Number.parseInt(hexadecimal ?? '', 16);
    const isCharacter = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
    return isCharacter ? String.fromCodePoint(code) : whole;
  });
}
