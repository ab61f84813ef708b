// The routes a running Foyer serves, read from each listener's own route table, so a test that walks
// every route (the fuzzer, the log redaction) reaches a new route without anyone listing it.
import type { FastifyInstance } from 'fastify';

export interface Route {
  origin: 'auth' | 'api' | 'ui';
  method: string;
  /** The path with `:name` parameters and `*` wildcards still in it. */
  path: string;
}

/** The routes a listener serves, from Fastify's route tree (`printRoutes`), one line per node. */
export function routesOf(listener: FastifyInstance, origin: Route['origin']): Route[] {
  const tree = listener.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const routes: Route[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│\s]*)[├└]── (\S+)(?: \(([^)]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    const path = `${stack.join('')}${match[2]}`;
    stack.push(match[2]!);
    for (const method of (match[3] ?? '').split(', ').filter(Boolean)) {
      if (method !== 'HEAD') routes.push({ origin, method, path });
    }
  }
  return routes;
}
