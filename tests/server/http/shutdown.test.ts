// Shutting down waits for answers in flight, but not for ever: a client that stalls in the middle of
// its request (or never reads its answer) loses its connection once the grace period is over.
import { once } from 'node:events';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';

let foyer: TestFoyer | undefined;
afterEach(async () => {
  await foyer?.close().catch(() => undefined);
  foyer = undefined;
});

/** A connection that sent the head of a request and a few bytes of its promised body, then stalls. */
async function stalledRequest(url: string): Promise<net.Socket> {
  const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
  await once(socket, 'connect');
  socket.write('POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"que');
  // The server has read the head once it answers a second, complete request on another connection.
  await fetch(`${url}/graphql?query=%7B__typename%7D`);
  return socket;
}

describe('shutdown', () => {
  it('ends a connection stalled mid-request after the grace period instead of waiting for the request timeout', async () => {
    foyer = await startFoyer({ shutdownGraceMs: 100 });
    const socket = await stalledRequest(foyer.urls.api);
    const socketClosed = once(socket, 'close');
    await foyer.foyer.close();
    await socketClosed;
    expect(socket.destroyed).toBe(true);
  });

  // The request's body arrives after the shutdown began; /graphql's first request also builds the GraphQL
  // engine (server/graphql/plugin.ts), so the answer waits for that too. The client keeps its side of
  // the connection open, as browsers do: Node's HTTP server ends a connection whose client half-closes
  // it, answer in flight or not.
  it('answers a request in flight that completes within the grace period, and then ends its connection', async () => {
    foyer = await startFoyer({ shutdownGraceMs: 60_000 });
    const body = JSON.stringify({ query: '{ __typename }' });
    const socket = net.connect(Number(new URL(foyer.urls.api).port), '127.0.0.1');
    await once(socket, 'connect');
    socket.write(`POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
    await fetch(`${foyer.urls.api}/graphql?query=%7B__typename%7D`);
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const closing = foyer.foyer.close();
    socket.write(body);
    // Ended by the server after its answer, well before the grace period would end it.
    await once(socket, 'close');
    await closing;
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer.toLowerCase()).toContain('\r\nconnection: close\r\n');
    expect(answer).toContain('{"data":{"__typename":"Query"}}');
  });
});
