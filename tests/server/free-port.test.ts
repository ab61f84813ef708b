// Test ports (server/testing.ts freePort): free, and outside the range the kernel hands to outgoing
// connections, where a connection opened before the test's listen could take one
// (tests/server/two-instances.test.ts failed a full run with EADDRINUSE).
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../server/testing.ts';

describe('a free port for a test', () => {
  it('lies below the ports of outgoing connections, and a server can listen on it', async () => {
    // Linux, as the test machines: the first port of the range outgoing connections are given.
    const below = Number((await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')).trim().split(/\s+/)[0]);
    for (let i = 0; i < 20; i += 1) {
      const port = await freePort();
      expect(port).toBeLessThan(below);
      await new Promise<void>((resolve, reject) => {
        const server = createServer();
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
      });
    }
  });
});
