/**
 * A statement file's bytes as text. Banks export UTF-8, Windows-1252 (most European CSVs and
 * OFX `CHARSET:1252`) or, from Excel's "Unicode text", UTF-16 with a byte order mark; few say
 * which. The order of guesses:
 *
 * 1. A UTF-16 byte order mark (FF FE or FE FF): UTF-16, little- or big-endian.
 * 2. Valid UTF-8 (with or without its BOM): UTF-8. A Windows-1252 file with accented letters is
 *    almost never valid UTF-8 by accident, while plain ASCII reads the same either way.
 * 3. The charset the file declares: an XML declaration's `encoding="..."` or an OFX SGML header's
 *    `CHARSET:` (`1252`, `ISO-8859-1`, ...). A declared UTF-8 that is not valid UTF-8 falls
 *    through to 4, as does a name the platform does not know.
 * 4. Windows-1252, which gives every byte a character (so nothing is refused here; a wrong guess
 *    shows as odd letters, never as lost bytes).
 *
 * A BOM never reaches the text. Node's `TextDecoder` decodes UTF-8, UTF-16 and other declared
 * charsets, but not Windows-1252: since Node 20.18.3 and 22.13 its `windows-1252` decoder reads
 * bytes 0x80-0x9F as Latin-1 control characters instead of €, „, “, – and the rest
 * (nodejs/node#60888), so Windows-1252 is decoded here, as Latin-1 plus that block's fixed table.
 * `iso-8859-1`, `latin1` and `us-ascii` decode as Windows-1252 too, as the WHATWG Encoding
 * Standard defines (files labelled Latin-1 are usually Windows-1252 with its € and quotes).
 */
import { TextDecoder } from 'node:util';

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
/** The characters of Windows-1252's bytes 0x80-0x9F (WHATWG index); the five unassigned ones map to themselves. */
const WINDOWS_1252_HIGH_CONTROLS = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';
const LATIN1_CONTROLS = /[\u0080-\u009F]/g;
/** Where a declaration can be: an XML prolog or an OFX header is far shorter. */
const DECLARATION_WINDOW_BYTES = 1024;
const XML_ENCODING = /^\s*<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/;
const OFX_CHARSET = /^\s*OFXHEADER\s*:[^]*?\bCHARSET\s*:\s*([A-Za-z0-9._-]+)/m;

export function decodeStatementBytes(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  const utf8 = decodeUtf8(bytes);
  if (utf8 !== undefined) return utf8;
  const declared = declaredDecoder(bytes);
  return stripByteOrderMark(declared === undefined ? decodeWindows1252(bytes) : declared.decode(bytes));
}

function decodeWindows1252(bytes: Uint8Array): string {
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return latin1.replace(LATIN1_CONTROLS, (control) => WINDOWS_1252_HIGH_CONTROLS.charAt(control.charCodeAt(0) - 0x80));
}

/** The text when the bytes are valid UTF-8 (the decoder drops a leading BOM), else undefined. */
function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** The decoder of the charset the file declares; undefined for none, an unknown one, or Windows-1252. */
function declaredDecoder(bytes: Uint8Array): TextDecoder | undefined {
  // Declarations are ASCII, which Latin-1 reads unchanged whatever the file's encoding.
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, DECLARATION_WINDOW_BYTES)).toString('latin1');
  const name = XML_ENCODING.exec(head)?.[1] ?? OFX_CHARSET.exec(head)?.[1];
  if (name === undefined) return undefined;
  const label = /^[0-9]+$/.test(name) ? `windows-${name}` : name === '8859-1' ? 'iso-8859-1' : name;
  try {
    const decoder = new TextDecoder(label);
    // Not valid UTF-8 (we got here), so UTF-8 is not what the bytes are, whatever the file says.
    const unusable = decoder.encoding === 'utf-8' || decoder.encoding.startsWith('utf-16') || decoder.encoding === 'windows-1252';
    return unusable ? undefined : decoder;
  } catch {
    return undefined;
  }
}

function stripByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
