// A DNS server on a local UDP port that answers TXT questions from a table the test fills, so domain
// verification (server/auth/enterprise/domains.ts) runs node:dns's real resolver against it
// (FOYER_DNS_SERVERS / config.dnsServers). Unknown names get NXDOMAIN.
import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import * as packet from 'dns-packet';

export interface DnsStandIn {
  /** `127.0.0.1:<port>`, for config.dnsServers. */
  server: string;
  /** TXT records by name (lower case). */
  txt: Map<string, string[]>;
  close(): Promise<void>;
}

export async function startDnsStandIn(): Promise<DnsStandIn> {
  const txt = new Map<string, string[]>();
  const socket: Socket = createSocket('udp4');
  socket.on('message', (message, remote) => {
    const query = packet.decode(message);
    const question = query.questions?.[0];
    const records = question?.type === 'TXT' ? txt.get(question.name.toLowerCase()) : undefined;
    const answer = packet.encode({
      id: query.id,
      type: 'response',
      flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | (records ? 0 : 3),
      questions: query.questions,
      answers: (records ?? []).map((data) => ({ type: 'TXT' as const, name: question!.name, ttl: 60, class: 'IN' as const, data })),
    });
    socket.send(answer, remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  return { server: `127.0.0.1:${port}`, txt, close: () => new Promise((resolve) => socket.close(() => resolve())) };
}
