// The only mailboxes a mailed domain proof goes to (server/auth/enterprise/domains.ts): the ones a
// domain's administrators read (RFC 2142 and common practice). Any other is one person's, and an
// employee's mailbox does not prove the domain. The workspace page offers these alone.
export const DOMAIN_MAILBOXES = ['postmaster', 'hostmaster', 'webmaster', 'admin', 'administrator'] as const;

export type DomainMailbox = (typeof DOMAIN_MAILBOXES)[number];
