/**
 * Reads an FTS5 index's structure record (the row of id 10 in its `%_data` table) from a SQLite
 * file: how many segments it has, on how many levels, and its write counter, which grows by one
 * each time FTS5 writes the terms it holds in memory as a new segment (fts5_index.c,
 * fts5StructureDecode and fts5FlushOneHash). Test-only knowledge of SQLite's own format.
 */
import Database from 'better-sqlite3';

const STRUCTURE_ROWID = 10;
const STRUCTURE_V2 = Buffer.from([0xff, 0x00, 0x00, 0x01]);

/** SQLite's varint (big-endian groups of 7 bits, up to 9 bytes): value and bytes read. */
function varint(bytes: Buffer, offset: number): [bigint, number] {
  let value = 0n;
  for (let index = 0; index < 8; index += 1) {
    const byte = bytes[offset + index]!;
    value = (value << 7n) | BigInt(byte & 0x7f);
    if ((byte & 0x80) === 0) return [value, index + 1];
  }
  return [(value << 8n) | BigInt(bytes[offset + 8]!), 9];
}

export interface Fts5Structure {
  levels: number;
  segments: number;
  /** Segments written from memory since the index was created. */
  writeCounter: bigint;
}

export function fts5Structure(databasePath: string, table: string): Fts5Structure {
  const db = new Database(databasePath, { readonly: true });
  try {
    const row = db.prepare(`SELECT block FROM ${table}_data WHERE id = ?`).get(STRUCTURE_ROWID) as { block: Buffer } | undefined;
    if (!row) throw new Error(`${table} has no structure record`);
    const block = row.block;
    let offset = 4; // the cookie
    if (block.subarray(offset, offset + 4).equals(STRUCTURE_V2)) offset += 4;
    const [levels, a] = varint(block, offset);
    const [segments, b] = varint(block, offset + a);
    const [writeCounter] = varint(block, offset + a + b);
    return { levels: Number(levels), segments: Number(segments), writeCounter };
  } finally {
    db.close();
  }
}
