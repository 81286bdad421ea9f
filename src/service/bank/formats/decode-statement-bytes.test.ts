import { describe, expect, it } from 'vitest';
import { decodeStatementBytes } from './decode-statement-bytes.js';

const bytes = (...values: (number | string)[]) => Uint8Array.from(values.flatMap((value) =>
  typeof value === 'string' ? [...Buffer.from(value, 'latin1')] : [value]));

describe('decodeStatementBytes', () => {
  it('reads UTF-8 without a BOM', () => {
    expect(decodeStatementBytes(Buffer.from('Café Süß €5 „Zitat“', 'utf8'))).toBe('Café Süß €5 „Zitat“');
  });

  it('reads UTF-8 with a BOM and drops the BOM', () => {
    expect(decodeStatementBytes(bytes(0xef, 0xbb, 0xbf, 'Datum;Betrag'))).toBe('Datum;Betrag');
  });

  it('reads bytes that are not UTF-8 as Windows-1252, with every character of 0x80-0x9F', () => {
    expect(decodeStatementBytes(bytes('Caf', 0xe9, ' S', 0xfc, 0xdf, ' ', 0x80, '5 ', 0x84, 'Zitat', 0x93, ' ', 0x96))).toBe('Café Süß €5 „Zitat“ –');
    const high = decodeStatementBytes(Uint8Array.from({ length: 32 }, (_, index) => 0x80 + index));
    expect([...high].map((character) => character.codePointAt(0))).toEqual([
      0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
      0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
    ]);
  });

  it('reads ISO-8859-1 declared in an XML declaration (as Windows-1252, which the standard maps it to)', () => {
    const text = decodeStatementBytes(bytes('<?xml version="1.0" encoding="ISO-8859-1"?><Nm>M', 0xfc, 'ller ', 0x80, '</Nm>'));
    expect(text).toBe('<?xml version="1.0" encoding="ISO-8859-1"?><Nm>Müller €</Nm>');
  });

  it('reads another charset an XML declaration names', () => {
    // ISO-8859-15 puts € at 0xA4, where Windows-1252 has ¤.
    expect(decodeStatementBytes(bytes("<?xml version='1.0' encoding='ISO-8859-15'?><A>", 0xa4, 0xe9, '</A>'))).toBe("<?xml version='1.0' encoding='ISO-8859-15'?><A>€é</A>");
  });

  it('reads the charset of an OFX SGML header', () => {
    const header = 'OFXHEADER:100\r\nDATA:OFXSGML\r\nVERSION:102\r\nENCODING:USASCII\r\nCHARSET:1252\r\n\r\n';
    expect(decodeStatementBytes(bytes(header, '<NAME>CAF', 0xc9, ' ', 0x80))).toBe(`${header}<NAME>CAFÉ €`);
  });

  it('falls back to Windows-1252 when the declared charset is unknown or is UTF-8 the bytes are not', () => {
    expect(decodeStatementBytes(bytes('<?xml version="1.0" encoding="x-unknown"?><A>', 0xe9, '</A>'))).toBe('<?xml version="1.0" encoding="x-unknown"?><A>é</A>');
    expect(decodeStatementBytes(bytes('<?xml version="1.0" encoding="UTF-8"?><A>', 0xe9, '</A>'))).toBe('<?xml version="1.0" encoding="UTF-8"?><A>é</A>');
  });

  it('prefers valid UTF-8 to a declaration', () => {
    expect(decodeStatementBytes(Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><A>é</A>', 'utf8'))).toBe('<?xml version="1.0" encoding="ISO-8859-1"?><A>é</A>');
  });

  it('reads UTF-16 with a byte order mark (Excel\'s "Unicode text")', () => {
    const little = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Date\tAmount\r\n2026-01-05\t-3,45 €', 'utf16le')]);
    expect(decodeStatementBytes(little)).toBe('Date\tAmount\r\n2026-01-05\t-3,45 €');
    const big = Buffer.from(Buffer.from('\uFEFFAé', 'utf16le').swap16());
    expect(decodeStatementBytes(big)).toBe('Aé');
  });

  it('reads an empty file as empty text', () => {
    expect(decodeStatementBytes(new Uint8Array())).toBe('');
  });
});
