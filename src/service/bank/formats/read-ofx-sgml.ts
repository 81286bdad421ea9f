/**
 * OFX 1.x (SGML) as a `MarkupElement` tree. Our own small reader, because no maintained npm
 * package reads these files exactly: the OFX packages are unmaintained, turn amounts into
 * JavaScript numbers, or rewrite the SGML into XML with regular expressions that break on the
 * shapes below. OFX 1.x is simple enough to read in one linear pass:
 *
 * - A header of `KEY:VALUE` lines (`OFXHEADER:100`, `CHARSET:1252`, ...) precedes the first `<`;
 *   only `decodeStatementBytes` needs it (the charset), so it is skipped here.
 * - An aggregate is closed (`<STMTTRN>...</STMTTRN>`); a leaf element usually is not:
 *   `<TRNAMT>-12.30` ends where the next tag begins. A leaf closed anyway (`<NAME>x</NAME>`, as
 *   QFX and some banks write) reads the same.
 * - An element with no text of its own might be an aggregate or an empty leaf (`<MEMO>` followed
 *   by the next tag). It is held open; when a closing tag then closes an element further out
 *   (`</STMTTRN>`), the elements still open inside it were empty leaves, and what was read into
 *   them belongs to their parent, where it is moved. SGML names are case-insensitive: names are
 *   upper-cased.
 * - Entities: the five predefined ones and character references; a bare `&` stays as written.
 *
 * A closing tag that closes nothing, or a file that ends inside an aggregate (a download cut
 * off), is refused with its line.
 */
import { lineError } from '../../../domain/bank/statement-errors.js';
import { lineOfOffset } from './line-counter.js';
import { NO_ATTRIBUTES, decodeEntities, type MarkupElement } from './markup-element.js';

const MAX_NESTING = 64;
const NAME = /^[A-Za-z][A-Za-z0-9._-]*$/;
const VISIBLE = /[^\s\u0000-\u001F]/;

export function readOfxSgml(text: string): MarkupElement {
  return new SgmlReader(text).read();
}

class SgmlReader {
  private readonly root: MarkupElement = { name: '#document', text: '', attributes: NO_ATTRIBUTES, children: [], offset: 0 };
  /** The elements open now, the document first. */
  private readonly open: MarkupElement[] = [this.root];

  constructor(private readonly text: string) {}

  read(): MarkupElement {
    const text = this.text;
    let position = text.indexOf('<');
    while (position !== -1) {
      const end = text.indexOf('>', position);
      if (end === -1) throw this.error(position, 'a tag is not closed with ">"');
      const next = text.startsWith('!--', position + 1) ? this.afterComment(position)
        : text.charAt(position + 1) === '/' ? this.closeTag(position, end)
        : text.charAt(position + 1) === '!' || text.charAt(position + 1) === '?' ? this.textEnd(end + 1)
        : this.openTag(position, end);
      position = next;
    }
    this.closeAll();
    return this.root;
  }

  /** Reads `<NAME>` and its text, if any; answers where the next tag begins (-1 at the end). */
  private openTag(position: number, end: number): number {
    const name = this.name(position, this.text.slice(position + 1, end));
    const next = this.textEnd(end + 1);
    const value = this.text.slice(end + 1, next === -1 ? this.text.length : next).trim();
    const element: MarkupElement = { name, text: '', attributes: NO_ATTRIBUTES, children: [], offset: position };
    this.current().children.push(element);
    if (value === '') {
      if (this.open.length > MAX_NESTING) throw this.error(position, `elements nest more than ${MAX_NESTING} deep`);
      this.open.push(element);
      return next;
    }
    element.text = decodeEntities(value);
    return this.skipOwnClosingTag(name, next);
  }

  /** After `<NAME>value`, a `</NAME>` right away belongs to it; answers where the next tag begins. */
  private skipOwnClosingTag(name: string, next: number): number {
    if (next === -1 || !this.text.startsWith('</', next)) return next;
    const end = this.text.indexOf('>', next);
    if (end === -1 || this.text.slice(next + 2, end).trim().toUpperCase() !== name) return next;
    return this.afterClosingTag(end);
  }

  private closeTag(position: number, end: number): number {
    const name = this.name(position, this.text.slice(position + 2, end));
    let index = this.open.length - 1;
    while (index > 0 && (this.open[index] as MarkupElement).name !== name) index -= 1;
    if (index === 0) throw this.error(position, `</${name}> closes no open element`);
    while (this.open.length - 1 > index) this.closeEmptyLeaf();
    this.open.pop();
    return this.afterClosingTag(end);
  }

  /** The innermost open element was an empty leaf: what was read into it moves to its parent. */
  private closeEmptyLeaf(): void {
    const leaf = this.open.pop() as MarkupElement;
    const parent = this.current();
    for (const moved of leaf.children) parent.children.push(moved);
    leaf.children = [];
  }

  /** Only whitespace (or a DOS end-of-file mark) may follow a closing tag before the next tag. */
  private afterClosingTag(end: number): number {
    const next = this.textEnd(end + 1);
    const between = this.text.slice(end + 1, next === -1 ? this.text.length : next);
    if (VISIBLE.test(between)) throw this.error(end + 1, `unexpected text ${JSON.stringify(between.trim().slice(0, 40))} after a closing tag`);
    return next;
  }

  private afterComment(position: number): number {
    const end = this.text.indexOf('-->', position + 4);
    if (end === -1) throw this.error(position, 'a comment is not closed with "-->"');
    return this.textEnd(end + 3);
  }

  /** At the end of the file every aggregate must have been closed; empty leaves need not be. */
  private closeAll(): void {
    while (this.open.length > 1) {
      const innermost = this.current();
      if (innermost.children.length > 0) {
        throw this.error(this.text.length, `the file ends before </${innermost.name}>; it may have been cut off`);
      }
      this.closeEmptyLeaf();
    }
  }

  private name(position: number, raw: string): string {
    const name = raw.trim();
    if (!NAME.test(name)) throw this.error(position, `${JSON.stringify(`<${raw}>`.slice(0, 40))} is not an OFX tag`);
    return name.toUpperCase();
  }

  private current(): MarkupElement {
    return this.open[this.open.length - 1] as MarkupElement;
  }

  private textEnd(from: number): number {
    return this.text.indexOf('<', from);
  }

  private error(offset: number, message: string): Error {
    return lineError(lineOfOffset(this.text, offset), message);
  }
}
