/**
 * Counts the transactions committed to a SQLite database's write-ahead log since its last reset,
 * read from the file itself: every WAL frame header says whether the frame ends a transaction (its
 * "database size after commit" field is non-zero), and frames left over from before the last reset
 * carry an older salt than the file's header. See https://www.sqlite.org/fileformat.html#wal_file_format.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const WAL_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;

export function walCommitCount(databasePath: string): number {
  const fd = openSync(`${databasePath}-wal`, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size < WAL_HEADER_BYTES) return 0;
    const header = Buffer.alloc(WAL_HEADER_BYTES);
    readSync(fd, header, 0, WAL_HEADER_BYTES, 0);
    const pageSize = header.readUInt32BE(8);
    const salt = [header.readUInt32BE(16), header.readUInt32BE(20)];
    const frame = Buffer.alloc(FRAME_HEADER_BYTES);
    let commits = 0;
    for (let offset = WAL_HEADER_BYTES; offset + FRAME_HEADER_BYTES + pageSize <= size; offset += FRAME_HEADER_BYTES + pageSize) {
      readSync(fd, frame, 0, FRAME_HEADER_BYTES, offset);
      // A frame of an older generation of the log ends the valid part.
      if (frame.readUInt32BE(8) !== salt[0] || frame.readUInt32BE(12) !== salt[1]) break;
      if (frame.readUInt32BE(4) !== 0) commits += 1;
    }
    return commits;
  } finally {
    closeSync(fd);
  }
}
