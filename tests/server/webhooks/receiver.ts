// A webhook receiver on loopback for the webhook tests: records every POST as it came (headers and
// raw body), answers with the status `answer` gives for the n-th request (0-based), and verifies
// signatures with the Standard Webhooks library itself. `delayMs` holds each answer back.
import http from 'node:http';
import { Webhook } from 'standardwebhooks';
import type { TestFoyer } from '../../../server/testing.ts';
import { admin } from '../support/console.ts';

export interface Received {
  headers: Record<string, string>;
  body: string;
}

export interface WebhookEvent {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** The events of every request whose signature `secret` verifies; throws on one it does not. */
  verifiedEvents(secret: string): WebhookEvent[];
  close(): Promise<void>;
}

export async function startReceiver(
  options: { port?: number; answer?: (index: number) => number; delayMs?: number } = {},
): Promise<Receiver> {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const index = received.length;
      received.push({
        headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)])),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const status = options.answer?.(index) ?? 204;
      setTimeout(() => response.writeHead(status).end(), options.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    verifiedEvents(secret) {
      const webhook = new Webhook(secret);
      return received.flatMap((entry) => (webhook.verify(entry.body, entry.headers) as { events: WebhookEvent[] }).events);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Adds an endpoint through the admin API and answers its id and secret. */
export async function addEndpoint(
  foyer: TestFoyer,
  appId: string,
  credentials: { token?: string; apiKey?: string },
  body: Record<string, unknown>,
): Promise<{ id: string; secret: string }> {
  const created = await admin<{ endpoint: { id: string }; secret: string }>(foyer, 'POST', `/apps/${appId}/webhooks`, {
    ...credentials,
    body,
  });
  if (created.status !== 201) throw new Error(`endpoint not created: ${created.status} ${JSON.stringify(created.body)}`);
  return { id: created.body.endpoint.id, secret: created.body.secret };
}
