/**
 * Kept-alive connections for webhook deliveries (delivery.ts): a new TCP (and TLS) connection per
 * delivery cost more than the delivery. An agent here only ever connects to one address that the
 * guard approved (address-guard.ts), for one scheme, port and host name: it is found by all four, so
 * when a name resolves to another address the next delivery takes another agent and never reuses a
 * connection to the old address. Agents nobody used for a while are destroyed.
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';

/**
 * How long an idle connection is kept: below the 5 s after which Node's HTTP servers close an idle
 * one (and Node's agent lowers it further to a second less than what a receiver announces in
 * `Keep-Alive: timeout=`), so that a receiver rarely closes a connection just as it is reused.
 */
const IDLE_CONNECTION_MS = 4_000;
/** An agent unused this long is destroyed (its connections closed long before). */
const UNUSED_AGENT_MS = 60_000;

export interface ApprovedAddress {
  address: string;
  family: 4 | 6;
}

export class DeliveryAgents {
  private readonly agents = new Map<string, { agent: HttpAgent; usedAt: number }>();

  /** The agent for `url` connecting to `target` (the address just approved for it). */
  agentFor(url: URL, target: ApprovedAddress): HttpAgent {
    const https = url.protocol === 'https:';
    const port = url.port === '' ? (https ? '443' : '80') : url.port;
    const key = `${url.protocol}//${target.address}/${port}/${url.hostname}`;
    const now = Date.now();
    this.sweep(now);
    let found = this.agents.get(key);
    if (found === undefined) {
      const options = { keepAlive: true, timeout: IDLE_CONNECTION_MS, scheduling: 'lifo' as const };
      found = { agent: https ? new HttpsAgent(options) : new HttpAgent(options), usedAt: now };
      this.agents.set(key, found);
    }
    found.usedAt = now;
    return found.agent;
  }

  /** Closes every connection (the deliverer stops). */
  destroy(): void {
    for (const { agent } of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  private sweep(now: number): void {
    for (const [key, { agent, usedAt }] of this.agents) {
      if (now - usedAt > UNUSED_AGENT_MS) {
        agent.destroy();
        this.agents.delete(key);
      }
    }
  }
}
