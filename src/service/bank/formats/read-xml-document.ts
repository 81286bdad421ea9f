/**
 * An XML statement (OFX 2.x, CAMT.053) as a `MarkupElement` tree, read by fast-xml-parser.
 *
 * The parser is set up so that it cannot change a value or be turned against us:
 * - every value stays text (`parseTagValue: false`, `parseAttributeValue: false`): an amount
 *   such as `0012.30` or `1e5` reaches our amount reader as written, never as a JavaScript number;
 * - a document type declaration is refused before parsing (no DTD, so no entity a file declares
 *   is ever expanded, internal or external), and the entity decoder we give the parser knows only
 *   XML's five predefined entities and character references;
 * - the document must be well-formed (the parser's own validator, one linear pass): a file cut
 *   off in the middle, which the parser alone would read without a word, is refused rather than
 *   imported without its last entries;
 * - namespace prefixes are removed, so `camt.053.001.02` to `.08` and a prefixed `<ns2:Ntry>` all
 *   read alike; nesting is capped.
 */
import { XMLParser, XMLValidator, type EntityDecoderOptions, type ValidationError } from 'fast-xml-parser';
import type { LedgerError } from '../../../domain/errors.js';
import { fileError, lineError } from '../../../domain/bank/statement-errors.js';
import { NO_ATTRIBUTES, decodeEntities, type MarkupElement } from './markup-element.js';
import { lineOfOffset } from './line-counter.js';

const MAX_NESTING = 64;
const TEXT = '#text';
const ATTRIBUTES = ':@';
/** Where the parser keeps a node's `startIndex` (`captureMetaData`); typed `Symbol` by the library. */
const METADATA = XMLParser.getMetaDataSymbol() as unknown as symbol;

/** Only the predefined entities and character references; a declared entity is refused earlier. */
const entityDecoder: EntityDecoderOptions = {
  setExternalEntities: () => undefined,
  addInputEntities: () => {
    throw new Error('entity declarations are not read');
  },
  reset: () => undefined,
  decode: decodeEntities,
  setXmlVersion: () => undefined,
};

const parser = new XMLParser({
  preserveOrder: true,
  captureMetaData: true,
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  entityDecoder,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  maxNestedTags: MAX_NESTING,
});

/** One node of the parser's ordered output: `{name: [children], ':@': attributes}` or `{'#text': text}`. */
type OrderedNode = Record<string, unknown>;

/**
 * `whenNotWellFormed` reads a file that is not well-formed XML some other way instead of refusing
 * it (OFX, whose banks write a bare `&`, passes its SGML reader); a document type is refused
 * either way.
 */
export function readXmlDocument(text: string, whenNotWellFormed?: (text: string) => MarkupElement): MarkupElement {
  refuseDocumentTypes(text);
  const validation = XMLValidator.validate(text);
  if (validation !== true) {
    if (whenNotWellFormed !== undefined) return whenNotWellFormed(text);
    throw notWellFormed(text, validation.err);
  }
  let nodes: OrderedNode[];
  try {
    nodes = parser.parse(text) as OrderedNode[];
  } catch (error) {
    // What the validator lets through and the parser does not: nesting deeper than MAX_NESTING.
    throw fileError(`The file could not be read as XML: ${(error as Error).message}`);
  }
  const root: MarkupElement = { name: '#document', text: '', attributes: NO_ATTRIBUTES, children: [], offset: 0 };
  appendChildren(root, nodes);
  return root;
}

function notWellFormed(text: string, error: ValidationError['err']): LedgerError {
  // Several elements left open: the validator names them all, at line 1; the end of the file is where it went wrong.
  if (error.code === 'InvalidXml' && error.msg.startsWith("Invalid '[")) {
    return lineError(lineOfOffset(text, text.length), 'the file ends before all its elements are closed; it may have been cut off');
  }
  return lineError(error.line, `the file is not well-formed XML: ${error.msg}`);
}

/**
 * A DTD is how XML declares entities (the "billion laughs" and external-entity attacks); no bank
 * statement format uses one, so a `<!DOCTYPE` or `<!ENTITY` anywhere refuses the file.
 */
function refuseDocumentTypes(text: string): void {
  for (const declaration of ['<!DOCTYPE', '<!ENTITY']) {
    const at = text.indexOf(declaration);
    if (at !== -1) {
      throw lineError(lineOfOffset(text, at), `the file declares a document type (${declaration}), which statement files never need and which is not read`,
        'Export the statement again from the bank; a statement file has no DOCTYPE');
    }
  }
}

function appendChildren(parent: MarkupElement, nodes: readonly OrderedNode[]): void {
  for (const node of nodes) {
    const name = elementName(node);
    if (name === undefined) {
      const text = node[TEXT];
      if (typeof text === 'string' && text !== '') parent.text = parent.text === '' ? text : `${parent.text} ${text}`;
      continue;
    }
    const attributes = node[ATTRIBUTES] as Record<string, string> | undefined;
    const element: MarkupElement = {
      name,
      text: '',
      attributes: attributes ?? NO_ATTRIBUTES,
      children: [],
      offset: startOffset(node),
    };
    parent.children.push(element);
    appendChildren(element, node[name] as OrderedNode[]);
  }
}

function startOffset(node: OrderedNode): number {
  const metadata = (node as unknown as Record<symbol, { startIndex?: number } | undefined>)[METADATA];
  return metadata?.startIndex ?? 0;
}

/** The element name of a node, or undefined for a text node. */
function elementName(node: OrderedNode): string | undefined {
  for (const key in node) if (key !== ATTRIBUTES && key !== TEXT) return key;
  return undefined;
}
