import type { Translate } from '../../i18n/texts.ts';

export interface ListedUser {
  id: string;
  fullName: string | null;
  email: string | null;
  enabled: boolean | null;
  /** Invited, not accepted yet: shown as 'Invited', with resend and revoke instead of edit. */
  invitationPending?: boolean | null;
  role: string | null;
}

/** The name cell: the full name, or 'Invited user' while it is blank. */
export function shownName(user: ListedUser, t: Translate): string {
  return user.fullName?.trim() || t('users.invitedUser');
}

/** Who a confirmation names: the full name, else the e-mail (an invited user has no name yet). */
export function addressedName(user: ListedUser): string {
  return user.fullName?.trim() || user.email || '';
}
