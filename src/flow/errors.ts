// Turns whatever an action threw into translation keys through a step's error map. The auth and API
// clients report machine codes (`code`/`error`, GraphQL `extensions.code`) and HTTP statuses; all are
// looked up, the most specific first.
import type { ErrorMap, FlowAlert } from './types.ts';

export const DEFAULT_ERROR_TITLE = 'errors.title';
/** A failure of a step without an error map. */
export const DEFAULT_ERROR_MESSAGE = 'login.errors.generic';

/** An error a transition raises by name (`{"error": "WRONG_CREDENTIALS"}`). */
export class FlowError extends Error {
  readonly code: string;
  constructor(code: string) {
    super(code);
    this.name = 'FlowError';
    this.code = code;
  }
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

function pushCode(codes: string[], value: unknown): void {
  if ((typeof value === 'string' && value) || typeof value === 'number') {
    const code = String(value);
    if (!codes.includes(code)) codes.push(code);
  }
}

/** Every code an error carries: names first, then HTTP statuses. */
export function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  const graphQLErrors = field(error, 'errors') ?? field(field(error, 'response'), 'errors');
  const extensions = [field(error, 'extensions')];
  if (Array.isArray(graphQLErrors)) extensions.push(...graphQLErrors.map((item) => field(item, 'extensions')));
  pushCode(codes, field(error, 'code'));
  pushCode(codes, field(error, 'error'));
  for (const extension of extensions) pushCode(codes, field(extension, 'code'));
  pushCode(codes, field(error, 'statusCode'));
  pushCode(codes, field(error, 'status'));
  pushCode(codes, field(field(error, 'response'), 'status'));
  for (const extension of extensions) {
    pushCode(codes, field(field(extension, 'response'), 'statusCode'));
    pushCode(codes, field(field(extension, 'exception'), 'httpStatus'));
  }
  return codes;
}

export function alertFor(error: unknown, map: ErrorMap | undefined): FlowAlert {
  const title = map?.title ?? DEFAULT_ERROR_TITLE;
  const known = errorCodes(error).find((code) => map?.codes?.[code]);
  const message = known ? map!.codes![known]! : (map?.default ?? DEFAULT_ERROR_MESSAGE);
  return { variant: 'danger', title, message };
}
