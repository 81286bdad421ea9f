import { describe, expect, it } from 'vitest';
import { thrownBy } from '../../../../test/fixtures/domain.js';
import { descend } from './markup-element.js';
import { readXmlDocument } from './read-xml-document.js';

describe('readXmlDocument', () => {
  it('keeps every value as text, never a number', () => {
    const root = readXmlDocument('<A><Amt Ccy="EUR">0012.30</Amt><B>1e5</B><C>0x10</C><D>true</D><E Nb="007"/></A>');
    expect(descend(root, 'A', 'Amt')?.text).toBe('0012.30');
    expect(descend(root, 'A', 'Amt')?.attributes).toEqual({ Ccy: 'EUR' });
    expect(descend(root, 'A', 'B')?.text).toBe('1e5');
    expect(descend(root, 'A', 'C')?.text).toBe('0x10');
    expect(descend(root, 'A', 'D')?.text).toBe('true');
    expect(descend(root, 'A', 'E')?.attributes).toEqual({ Nb: '007' });
  });

  it('removes namespace prefixes', () => {
    const root = readXmlDocument('<ns2:Document xmlns:ns2="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><ns2:Ntry><ns2:Amt Ccy="CHF">1.00</ns2:Amt></ns2:Ntry></ns2:Document>');
    expect(descend(root, 'Document', 'Ntry', 'Amt')?.text).toBe('1.00');
  });

  it('decodes the predefined entities, character references and CDATA, and nothing else', () => {
    const root = readXmlDocument('<A><B>M&#252;ller &amp; S&#xF6;hne &lt;GmbH&gt; &quot;x&apos; &nbsp;</B><C><![CDATA[a < b & c]]></C></A>');
    expect(descend(root, 'A', 'B')?.text).toBe('Müller & Söhne <GmbH> "x\' &nbsp;');
    expect(descend(root, 'A', 'C')?.text).toBe('a < b & c');
  });

  it('records where each element starts, in the text as given (CRLF included)', () => {
    const text = '<?xml version="1.0"?>\r\n<A>\r\n  <B>1</B>\r\n  <B>2</B>\r\n</A>';
    const a = descend(readXmlDocument(text), 'A');
    expect(a?.children.map((element) => element.offset)).toEqual([text.indexOf('<B>1'), text.indexOf('<B>2')]);
  });

  it.each([
    ['an entity declaration (billion laughs)', '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n <!ENTITY lol2 "&lol;&lol;">\n]>\n<A>&lol2;</A>',
      'line 2: the file declares a document type (<!DOCTYPE), which statement files never need and which is not read'],
    ['an external entity', '<?xml version="1.0"?>\n<!DOCTYPE A SYSTEM "file:///etc/passwd">\n<A/>',
      'line 2: the file declares a document type (<!DOCTYPE), which statement files never need and which is not read'],
    ['an entity without a DOCTYPE', '<A>\n<!ENTITY x "y">\n</A>', 'line 2: the file declares a document type (<!ENTITY), which statement files never need and which is not read'],
    ['a file cut off', '<Document>\n<Ntry>\n<Amt>1.00</Amt>\n', 'line 4: the file ends before all its elements are closed; it may have been cut off'],
    ['a file cut off inside its root', '<Document>\n<Ntry/>\n', "line 1: the file is not well-formed XML: Unclosed tag 'Document'."],
    ['an empty file', '', 'line 1: the file is not well-formed XML: Start tag expected.'],
    ['crossed tags', '<A>\n<B>\n</A>\n</B>', "line 3: the file is not well-formed XML: Expected closing tag 'B' (opened in line 2, col 1) instead of closing tag 'A'."],
  ])('refuses %s', (_name, text, message) => {
    const error = thrownBy(() => readXmlDocument(text));
    expect([error.code, error.field, error.message]).toEqual(['VALIDATION_ERROR', 'content', message]);
  });

  it('refuses nesting deeper than 64 elements as a validation error', () => {
    const error = thrownBy(() => readXmlDocument(`${'<A>'.repeat(70)}${'</A>'.repeat(70)}`));
    expect([error.code, error.field, error.message]).toEqual(['VALIDATION_ERROR', 'content', 'The file could not be read as XML: Maximum nested tags exceeded']);
  });

  it('hands a file that is not well-formed to the fallback, but never one with a document type', () => {
    const fallback = () => ({ name: 'fallback', text: '', attributes: {}, children: [], offset: 0 });
    expect(readXmlDocument('<A>AT&T</A>', fallback).name).toBe('fallback');
    expect(thrownBy(() => readXmlDocument('<!DOCTYPE A [<!ENTITY x "y">]><A>&x;</A>', fallback)).message)
      .toBe('line 1: the file declares a document type (<!DOCTYPE), which statement files never need and which is not read');
  });
});
