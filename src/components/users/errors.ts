// Why the server refused a change to a member, as a translation key: the rules it enforces (nobody
// changes themself, a workspace keeps an enabled owner, roles one may not touch) get their own text.
import { errorCodes } from '../../flow/errors.ts';

const KNOWN = ['SELF_CHANGE_FORBIDDEN', 'OWNER_ROLE_MUST_EXIST', 'FORBIDDEN', 'NOT_FOUND'];

export function memberErrorKey(error: unknown, fallback: string): string {
  const code = errorCodes(error).find((candidate) => KNOWN.includes(candidate));
  return code ? `users.errors.${code}` : fallback;
}
