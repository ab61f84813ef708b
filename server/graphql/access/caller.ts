// The caller (server/auth/callers.ts) as resolvers need it. Authorization has already admitted the
// caller before a resolver runs; these narrow the type and stay correct on their own should a field
// be wired to the wrong privilege.
import type { App } from '../../apps/lookup.ts';
import type { Caller, MemberCaller } from '../../auth/caller-kinds.ts';
import { unauthenticated } from '../errors.ts';

export function memberOf(caller: Caller): MemberCaller {
  if (caller.kind !== 'member') throw unauthenticated();
  return caller;
}

export function appOf(caller: Caller): App {
  if (caller.kind === 'member' || caller.kind === 'anonymous') return caller.app;
  throw unauthenticated();
}
