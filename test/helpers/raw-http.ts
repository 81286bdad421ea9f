/**
 * Sends bytes over a plain TCP socket and returns the parsed answer: for requests that fetch cannot
 * send (raw non-ASCII bytes, a bad chunk size, conflicting length headers).
 */
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: any;
  text: string;
}

export function sendRaw(baseUrl: string, request: string | Buffer): Promise<RawAnswer> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      const bodyText = rest.join('\r\n\r\n');
      let body: unknown = bodyText;
      try { body = JSON.parse(bodyText); } catch { /* keep text */ }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body, text });
    });
    socket.write(request);
    // Ask the server to close once it has answered; a request it refused closes the connection itself.
    setTimeout(() => { if (!socket.destroyed) socket.end(); }, 300);
  });
}
