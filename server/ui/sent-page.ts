// A drawn runtime page as it goes out. Its drawing is the same for every visitor asking for the same
// address in the same languages (server/ui/first-paint.ts), and its inline stylesheets are allowed by
// their hashes rather than by a nonce of each answer, so its bytes are the same too: they are put
// together and compressed once per drawing, not for every answer, which took about half of a drawn
// page's CPU (docs/benchmarks.md). They also get an entity tag, made once, so that a browser that has
// the page already is answered 304 without it (rather than @fastify/etag, which hashes every answer).
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import Negotiator from 'negotiator';
import type { FastifyRequest } from 'fastify';
import type { PaintedPage } from './first-paint.ts';

export type PageEncoding = 'br' | 'gzip';

/** Preferred in this order when the client accepts both alike (as @fastify/compress does for the other answers). */
const ENCODINGS: PageEncoding[] = ['br', 'gzip'];

/**
 * Brotli's quality 5: made once per drawing, 1.6 ms for a 49 KB page and 7 % smaller than the 4 the
 * other answers get on the fly; 11 took 48 ms for another 10 %, which every newly drawn address would pay.
 */
const BROTLI_OPTIONS = {
  params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 5 },
};

export interface SentPage {
  /** `'sha256-…'` of each inline stylesheet, for the answer's style-src. */
  styleSources: readonly string[];
  /** The page's bytes in `encoding`, or as they are; each encoding made on first use. */
  body(encoding: PageEncoding | undefined): Buffer;
  /** The strong entity tag of those bytes: the page's hash, and the encoding, whose bytes differ. */
  etag(encoding: PageEncoding | undefined): string;
}

export function sentPage({ html, styleSources }: PaintedPage): SentPage {
  const plain = Buffer.from(html);
  const hash = createHash('sha256').update(plain).digest('base64url');
  const encoded = new Map<PageEncoding, Buffer>();
  const encode = (encoding: PageEncoding) =>
    encoding === 'br' ? brotliCompressSync(plain, BROTLI_OPTIONS) : gzipSync(plain, { level: 9 });
  return {
    styleSources,
    body(encoding) {
      if (!encoding) return plain;
      let bytes = encoded.get(encoding);
      if (!bytes) encoded.set(encoding, (bytes = encode(encoding)));
      return bytes;
    },
    etag: (encoding) => `"${hash}${encoding ? `-${encoding}` : ''}"`,
  };
}

/** Negotiator 1.x breaks ties by a `preferred` order, which @types/negotiator does not know yet. */
type EncodingNegotiator = { encoding(available: PageEncoding[], options: { preferred: PageEncoding[] }): PageEncoding | undefined };

/** The encoding of `request`'s accept-encoding the page goes out in; undefined: as it is. */
export function pageEncodingOf(request: FastifyRequest): PageEncoding | undefined {
  return (new Negotiator(request.raw) as unknown as EncodingNegotiator).encoding(ENCODINGS, { preferred: ENCODINGS });
}

/** The serialized CSP `policy` with `sources` added to its style-src directive. */
export function withStyleSources(policy: string, sources: readonly string[]): string {
  if (sources.length === 0) return policy;
  return policy
    .split(';')
    .map((directive) => (/^\s*style-src(\s|$)/i.test(directive) ? `${directive} ${sources.join(' ')}` : directive))
    .join(';');
}
