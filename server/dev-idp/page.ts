// The development identity provider's one screen: pick a test identity (which is also the consent),
// or cancel. Texts come from server/notify/locales (the developer pages' texts), escaped whole.
import { createTranslator } from '../notify/texts.ts';
import type { DevIdentity } from './identities.ts';

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const STYLE = `
  body { font-family: system-ui, sans-serif; margin: 0; padding: 1rem; color: #1a1a1a; background: #f5f6fa; }
  main { max-width: 28rem; margin: 2rem auto; background: #fff; padding: 1.5rem; border-radius: 0.5rem; }
  h1 { font-size: 1.5rem; margin-top: 0; }
  ul { list-style: none; padding: 0; margin: 0 0 1rem; }
  li { margin-bottom: 0.75rem; }
  button { width: 100%; padding: 0.75rem; font-size: 1rem; border-radius: 0.375rem; cursor: pointer; text-align: left; }
  .identity { background: #1f42dd; color: #fff; border: 0; }
  .identity span { display: block; font-size: 0.875rem; }
  .cancel { background: #fff; color: #1f42dd; border: 1px solid #1f42dd; text-align: center; }
  button:focus-visible { outline: 3px solid #0b1a5c; outline-offset: 2px; }
`;

export function renderPickPage(input: { uid?: string; identities?: readonly DevIdentity[]; expired?: boolean }): string {
  const { t, language } = createTranslator('en');
  const body =
    input.expired || !input.uid || !input.identities
      ? `<p role="alert">${escapeHtml(t('devIdp.expired'))}</p>`
      : `<p>${escapeHtml(t('devIdp.intro'))}</p>
    <p id="choose">${escapeHtml(t('devIdp.choose'))}</p>
    <ul aria-labelledby="choose">
      ${input.identities
        .map((identity) => {
          const name = `${identity.givenName} ${identity.familyName}`;
          const detail = t(identity.emailVerified ? 'devIdp.verified' : 'devIdp.unverified', { email: identity.email });
          return `<li><form method="post" action="/interaction/${escapeHtml(input.uid!)}/login">
        <input type="hidden" name="identity" value="${escapeHtml(identity.id)}">
        <button class="identity" type="submit">${escapeHtml(t('devIdp.continueAs', { name }))}<span>${escapeHtml(detail)}</span></button>
      </form></li>`;
        })
        .join('\n      ')}
    </ul>
    <form method="post" action="/interaction/${escapeHtml(input.uid)}/cancel">
      <button class="cancel" type="submit">${escapeHtml(t('devIdp.cancel'))}</button>
    </form>`;
  return `<!doctype html>
<html lang="${escapeHtml(language)}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(t('devIdp.title'))}</title>
  <style>${STYLE}</style>
</head>
<body>
  <main>
    <h1>${escapeHtml(t('devIdp.heading'))}</h1>
    ${body}
  </main>
</body>
</html>`;
}
