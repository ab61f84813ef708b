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

/** One server field issue (server/http/field-issues.ts); src/i18n/field-issues.ts translates it. */
export interface ServerFieldIssue {
  code: string;
  params: Record<string, unknown>;
  /** The server's English, for a code this runtime does not know. */
  message: string;
}

/** A field message as the server sent it: an issue, or a text (older answers, other routes). */
export type FieldMessage = string | ServerFieldIssue;

export function isServerFieldIssue(value: unknown): value is ServerFieldIssue {
  if (typeof value !== 'object' || value === null) return false;
  const { code, params, message } = value as Record<string, unknown>;
  return (
    typeof code === 'string' && typeof message === 'string' && (params === undefined || (typeof params === 'object' && params !== null))
  );
}

/** Messages about single fields, by form field path; a message is a server field issue, a translation key or a server text. */
export type FieldErrors = Record<string, FieldMessage[]>;

function messagesOf(value: unknown): string[] {
  if (typeof value === 'string' && value) return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string' && item !== '');
  return [];
}

function issuesOf(value: unknown): ServerFieldIssue[] {
  return Array.isArray(value) ? value.filter(isServerFieldIssue) : [];
}

/**
 * What the server said about single fields, by the server's field name. GraphQL answers carry
 * `extensions.fieldIssues` ({name: [{code, params, message}]}) beside `extensions.fields` ({name:
 * message}, what older servers send); REST answers a body whose `details` is {field, issues} (or
 * {field, problems}).
 */
export function serverFieldErrors(error: unknown): FieldErrors {
  const found: FieldErrors = {};
  const add = (name: string, messages: FieldMessage[]) => {
    if (messages.length) found[name] = [...(found[name] ?? []), ...messages];
  };
  const details = field(error, 'details');
  const entries = Array.isArray(details) ? details : [];
  for (const entry of entries) {
    const extensions = field(entry, 'extensions');
    const issues = field(extensions, 'fieldIssues');
    const fields = field(extensions, 'fields');
    if (typeof issues === 'object' && issues !== null) {
      for (const [name, value] of Object.entries(issues)) add(name, issuesOf(value));
    } else if (typeof fields === 'object' && fields !== null) {
      for (const [name, value] of Object.entries(fields)) add(name, messagesOf(value));
    }
  }
  const body = Array.isArray(details) ? undefined : field(details, 'details');
  const name = field(body, 'field');
  if (typeof name === 'string') {
    const issues = issuesOf(field(body, 'issues'));
    add(name, issues.length ? issues : messagesOf(field(body, 'problems') ?? field(details, 'message')));
  }
  return found;
}

/**
 * Server field errors placed on the form's fields through the step's `onError.fields`; names in
 * `skip` (fields the flow collects, placed by the engine) are left out.
 */
export function fieldErrorsFor(error: unknown, map: ErrorMap | undefined, skip: ReadonlySet<string> = new Set()): FieldErrors {
  const placed: FieldErrors = {};
  if (!map?.fields) return placed;
  for (const [name, messages] of Object.entries(serverFieldErrors(error))) {
    if (skip.has(name)) continue;
    const target = map.fields[name] ?? (map.fields['*'] ? `${map.fields['*']}.${name}` : undefined);
    if (target) placed[target] = [...(placed[target] ?? []), ...messages];
  }
  return placed;
}
