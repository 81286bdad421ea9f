import { describe, expect, it } from 'vitest';
import { thrownBy } from '../../../../test/fixtures/domain.js';
import type { MarkupElement } from './markup-element.js';
import { readOfxSgml } from './read-ofx-sgml.js';

/** The tree as nested names and texts, which is what the tests compare. */
type Shape = [string, string, Shape[]];
const shape = (element: MarkupElement): Shape => [element.name, element.text, element.children.map(shape)];

describe('readOfxSgml', () => {
  it('skips the header and reads unclosed leaves up to the next tag', () => {
    const root = readOfxSgml('OFXHEADER:100\nDATA:OFXSGML\n\n<OFX>\n<STMTTRN>\n<TRNAMT>-12.30\n<NAME>Coffee  shop \n</STMTTRN>\n</OFX>\n');
    expect(shape(root)).toEqual(['#document', '', [['OFX', '', [['STMTTRN', '', [['TRNAMT', '-12.30', []], ['NAME', 'Coffee  shop', []]]]]]]]);
  });

  it('reads closed leaves the same way (QFX, XML-ish banks)', () => {
    const root = readOfxSgml('<OFX><STMTTRN><TRNAMT>-12.30</TRNAMT><NAME>Coffee</NAME></STMTTRN></OFX>');
    expect(shape(root)).toEqual(['#document', '', [['OFX', '', [['STMTTRN', '', [['TRNAMT', '-12.30', []], ['NAME', 'Coffee', []]]]]]]]);
  });

  it('turns an element without text that its parent\'s end closes into an empty leaf, and gives what it held back to the parent', () => {
    const root = readOfxSgml('<OFX><STMTTRN><CHECKNUM>1042<MEMO>\n<NAME>CHECK 1042\n<FITID>7\n</STMTTRN></OFX>');
    expect(shape(root)).toEqual(['#document', '', [['OFX', '', [['STMTTRN', '', [
      ['CHECKNUM', '1042', []], ['MEMO', '', []], ['NAME', 'CHECK 1042', []], ['FITID', '7', []],
    ]]]]]]);
  });

  it('handles empty leaves nested in empty leaves', () => {
    const root = readOfxSgml('<OFX><A><B><C><D>x</A></OFX>');
    expect(shape(root)).toEqual(['#document', '', [['OFX', '', [['A', '', [['B', '', []], ['C', '', []], ['D', 'x', []]]]]]]]);
  });

  it('decodes the predefined entities and leaves a bare ampersand as written', () => {
    const root = readOfxSgml('<OFX><NAME>AT&amp;T &lt;1&gt; &#233;&#xE9; B&B &nbsp;</OFX>');
    expect(root.children[0]?.children[0]?.text).toBe('AT&T <1> éé B&B &nbsp;');
  });

  it('upper-cases names (SGML names are case-insensitive)', () => {
    const root = readOfxSgml('<ofx><StmtTrn><trnamt>1</StmtTrn></OFX>');
    expect(shape(root)).toEqual(['#document', '', [['OFX', '', [['STMTTRN', '', [['TRNAMT', '1', []]]]]]]]);
  });

  it('skips comments and declarations', () => {
    const root = readOfxSgml('<!-- exported <by> us --><?x y?><OFX><A>1</OFX>');
    expect(shape(root)).toEqual(['#document', '', [['OFX', '', [['A', '1', []]]]]]);
  });

  it('records where each element starts', () => {
    const text = 'H:1\n<OFX>\n<A>1\n</OFX>';
    const [ofx] = readOfxSgml(text).children;
    expect([ofx?.offset, ofx?.children[0]?.offset]).toEqual([text.indexOf('<OFX>'), text.indexOf('<A>')]);
  });

  it.each([
    ['a closing tag that closes nothing', '<OFX>\n<A>1\n</B>\n</OFX>', 'line 3: </B> closes no open element'],
    ['a file cut off inside an aggregate', '<OFX>\n<STMTTRN>\n<TRNAMT>1\n', 'line 4: the file ends before </STMTTRN>; it may have been cut off'],
    ['text after a closing tag', '<OFX>\n<A>\n</A>oops\n</OFX>', 'line 3: unexpected text "oops" after a closing tag'],
    ['a tag that is not a name', '<OFX>\n<A B>1\n</OFX>', 'line 2: "<A B>" is not an OFX tag'],
    ['a tag without its ">"', '<OFX>\n<A', 'line 2: a tag is not closed with ">"'],
  ])('refuses %s', (_name, text, message) => {
    const error = thrownBy(() => readOfxSgml(text));
    expect([error.field, error.message]).toEqual(['content', message]);
  });

  it('refuses nesting deeper than 64', () => {
    expect(thrownBy(() => readOfxSgml(`${'<A>\n'.repeat(70)}`)).message).toBe('line 65: elements nest more than 64 deep');
  });
});
