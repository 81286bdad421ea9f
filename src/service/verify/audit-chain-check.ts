/**
 * The audit chain: every sealed audit record's hash matches its content and the previous seal's
 * hash, and positions run 1, 2, 3, ... without gaps. `verifyLedger` seals whatever was committed
 * before it takes its snapshot; a record committed while the verification runs is sealed right
 * after its commit and checked by the next run.
 */
import { auditRecordHash, GENESIS_HASH } from '../entry-hash.js';
import type { CheckDefinition } from './check.js';

const PAGE_SIZE = 1000;

export const auditChainCheck: CheckDefinition = {
  name: 'audit_chain',
  description: 'each audit seal\'s hash matches its record and the previous seal\'s hash, without gaps',
  create: ({ reads, report }) => ({
    async finish() {
      let previous = GENESIS_HASH;
      let position = 0;
      let page = await reads.listAuditChain({ limit: PAGE_SIZE });
      for (;;) {
        for (const link of page.items) {
          position += 1;
          const where = `audit record ${link.record.id} (seal ${link.position})`;
          if (link.position !== position) {
            report({ expected: String(position), found: String(link.position), message: `The audit chain skips from seal ${position - 1} to ${link.position}: a seal was removed` });
            position = link.position;
          }
          if (link.previous_hash !== previous) {
            report({ expected: previous, found: link.previous_hash, message: `The seal of ${where} does not follow the seal before it: the chain was cut` });
          }
          const recomputed = auditRecordHash(link.record, link.previous_hash);
          if (recomputed !== link.hash) {
            report({ expected: recomputed, found: link.hash, message: `The hash of ${where} does not match its content: the record was changed after it was written` });
          }
          previous = link.hash;
        }
        if (page.next === undefined) break;
        page = await reads.listAuditChain({ limit: PAGE_SIZE, after: page.next });
      }
    },
  }),
};
