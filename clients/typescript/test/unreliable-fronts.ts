/**
 * Two misbehaving fronts for a real server, both on 127.0.0.1, to test the client's retries:
 *
 * - `startDroppingProxy`: a TCP proxy whose first connection carries the request to the server,
 *   waits for the server's answer and then closes the connection without passing the answer on,
 *   as when a network breaks after the server acted (later connections pass through).
 * - `startRefusingFront`: an HTTP front that answers the first requests with the statuses given
 *   (503, 429 with Retry-After, ...) and forwards the others to the server. It records the
 *   `Idempotency-Key` of every request it receives.
 */
import { request as httpRequest, createServer as createHttpServer, type Server } from 'node:http';
import { createConnection, createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';

export interface Front {
  baseUrl: string;
  /** Connections (dropping proxy) or requests (refusing front) received so far. */
  count(): number;
  close(): Promise<void>;
}

export async function startDroppingProxy(target: string): Promise<Front> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createTcpServer((client) => {
    connections += 1;
    const dropAnswer = connections === 1;
    const upstream = createConnection({ host: hostname, port: Number(port) });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    }
    client.pipe(upstream);
    if (dropAnswer) {
      upstream.once('data', () => { client.destroy(); upstream.destroy(); });
    } else {
      upstream.pipe(client);
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const baseUrl = await listen(server);
  return {
    baseUrl, count: () => connections,
    close: () => { for (const socket of sockets) socket.destroy(); return closeServer(server); },
  };
}

export interface RefusingFront extends Front {
  /** The Idempotency-Key header of each request received, in order (undefined when absent). */
  idempotencyKeys: (string | undefined)[];
}

/** `answers[i]` is what the i-th request gets instead of the server's answer, while there is one. */
export async function startRefusingFront(target: string, answers: { status: number; code?: string; retryAfter?: string }[]): Promise<RefusingFront> {
  const { hostname, port } = new URL(target);
  const idempotencyKeys: (string | undefined)[] = [];
  const server = createHttpServer((request, response) => {
    const index = idempotencyKeys.push(request.headers['idempotency-key'] as string | undefined) - 1;
    const answer = answers[index];
    if (answer) {
      request.resume();
      response.writeHead(answer.status, {
        'content-type': 'application/json', 'x-request-id': `front-${index}`,
        ...(answer.retryAfter === undefined ? {} : { 'retry-after': answer.retryAfter }),
      });
      const code = answer.code ?? (answer.status === 429 ? 'RATE_LIMITED' : 'UNAVAILABLE');
      response.end(JSON.stringify({ code, message: `front answer ${index}` }));
      return;
    }
    const upstream = httpRequest({ host: hostname, port: Number(port), path: request.url, method: request.method, headers: request.headers }, (answered) => {
      response.writeHead(answered.statusCode ?? 502, answered.headers);
      answered.pipe(response);
    });
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  const baseUrl = await listen(server);
  return {
    baseUrl, idempotencyKeys, count: () => idempotencyKeys.length,
    close: () => { server.closeAllConnections(); return closeServer(server); },
  };
}

function listen(server: Server | ReturnType<typeof createTcpServer>): Promise<string> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

function closeServer(server: Server | ReturnType<typeof createTcpServer>): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
