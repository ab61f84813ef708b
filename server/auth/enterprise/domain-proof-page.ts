// The page a domain proof mail's link opens (server/auth/enterprise/domains.ts): what the workspace
// asks, and a button that confirms it (a POST, so a mail scanner opening the link confirms nothing);
// then that it is done, that the domain cannot be claimed (./domains.ts), or that the link no longer works. Texts from server/notify/locales, in the
// workspace's language, escaped whole.
import { escapeHtml } from '../../notify/render.ts';
import { createTranslator } from '../../notify/texts.ts';
import { renderPlainPage } from '../../notify/plain-page.ts';
import type { ClaimRefusal } from './domains.ts';

export interface DomainProofAbout {
  domain: string;
  workspace: string;
  app: string;
  locale: string | null;
}

export const DOMAIN_PROOF_CSP = "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export function renderDomainProofPage(
  state:
    | { kind: 'ask'; about: DomainProofAbout }
    | { kind: 'done'; about: DomainProofAbout }
    | { kind: 'refused'; refusal: ClaimRefusal; about: DomainProofAbout }
    | { kind: 'expired' },
): string {
  const { t, language } = createTranslator(state.kind === 'expired' ? null : state.about.locale);
  const values: Record<string, string> =
    state.kind === 'expired' ? {} : { domain: state.about.domain, workspace: state.about.workspace, app: state.about.app };
  const title = state.kind === 'expired' ? t('domainProof.button') : t('domainProof.title', values);
  const body =
    state.kind === 'ask'
      ? `<p>${escapeHtml(t('domainProof.intro', values))}</p>
    <form method="post"><button type="submit">${escapeHtml(t('domainProof.button'))}</button></form>`
      : state.kind === 'done'
        ? `<p role="status">${escapeHtml(t('domainProof.done', values))}</p>`
        : state.kind === 'refused'
          ? `<p role="alert">${escapeHtml(t(`domainProof.${state.refusal}`, values))}</p>`
          : `<p role="alert">${escapeHtml(t('domainProof.expired'))}</p>`;
  return renderPlainPage(language, title, body);
}
