// The development mailbox as one accessible HTML page: each message is a labelled region with its
// recipient, time, links as plain anchors, the rendered HTML in a sandboxed frame (an opaque origin,
// served from its own URL under a CSP that forbids every script, see mailbox.ts) and the plain-text part.
import { escapeHtml as e } from './render.ts';
import { createTranslator } from './texts.ts';

export interface MailboxEntry {
  id: string;
  /** 'email', or 'sms' for text messages (which have no subject: their text stands in). */
  channel: 'email' | 'sms';
  to: string;
  subject: string;
  kind: string;
  text: string;
  html: string | null;
  links: string[];
  createdAt: string;
}

export const MAILBOX_CSS = `:root { color-scheme: light; }
body { margin: 0; font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; color: #1f2937; background: #f3f4f6; }
header, main { max-width: 960px; margin: 0 auto; padding: 16px 24px; }
h1 { font-size: 1.75rem; margin: 8px 0; }
h2 { font-size: 1.25rem; margin: 0 0 8px; overflow-wrap: anywhere; }
h3 { font-size: 1rem; margin: 16px 0 4px; }
form { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 12px 0; }
input { font: inherit; padding: 6px 8px; border: 1px solid #6b7280; border-radius: 4px; min-width: 18rem; }
button { font: inherit; padding: 6px 14px; border: 0; border-radius: 4px; background: #1f42dd; color: #ffffff; cursor: pointer; }
a { color: #1d4ed8; }
:focus-visible { outline: 3px solid #1f42dd; outline-offset: 2px; }
article { background: #ffffff; border: 1px solid #d1d5db; border-radius: 8px; padding: 16px 20px; margin: 0 0 20px; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 12px; margin: 0; }
dt { font-weight: 600; }
dd { margin: 0; overflow-wrap: anywhere; }
ul { margin: 0; padding-left: 20px; }
li { overflow-wrap: anywhere; }
iframe { width: 100%; height: 560px; border: 1px solid #d1d5db; border-radius: 4px; background: #ffffff; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f9fafb; padding: 12px; border-radius: 4px; }
`;

export function mailboxPage(entries: MailboxEntry[], filter: string | undefined): string {
  const { t } = createTranslator('en');
  const title = t('mailbox.title');
  const articles = entries.map((entry) => {
    const subjectId = `message-${e(entry.id)}`;
    const linksId = `links-${e(entry.id)}`;
    const links = entry.links.length
      ? `<ul>${entry.links.map((link) => `<li><a href="${e(link)}">${e(link)}</a></li>`).join('')}</ul>`
      : `<p>${e(t('mailbox.noLinks'))}</p>`;
    const rendered = entry.html
      ? `<h3>${e(t('mailbox.rendered'))}</h3>
<iframe sandbox="allow-scripts" src="/dev/mailbox/messages/${encodeURIComponent(entry.id)}" title="${e(`${t('mailbox.rendered')}: ${entry.subject}`)}" loading="lazy"></iframe>`
      : '';
    return `<article aria-labelledby="${subjectId}">
<h2 id="${subjectId}">${e(entry.subject || entry.text)}</h2>
<dl>
<dt>${e(t('mailbox.to'))}</dt><dd>${e(entry.to)}</dd>
<dt>${e(t('mailbox.sent'))}</dt><dd><time datetime="${e(entry.createdAt)}">${e(entry.createdAt)}</time></dd>
<dt>${e(t('mailbox.kind'))}</dt><dd>${e(entry.kind)}</dd>
</dl>
<section aria-labelledby="${linksId}">
<h3 id="${linksId}">${e(t('mailbox.links'))}</h3>
${links}
</section>
${rendered}
<details><summary>${e(t('mailbox.plainText'))}</summary><pre>${e(entry.text)}</pre></details>
</article>`;
  });
  const summary = entries.length ? t('mailbox.count', { count: entries.length }) : t('mailbox.empty');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)} · Foyer</title>
<link rel="stylesheet" href="/dev/mailbox.css">
</head>
<body>
<header>
<h1>${e(title)}</h1>
<p>${e(t('mailbox.intro'))}</p>
<form method="get" action="/dev/mailbox" role="search">
<label for="mailbox-to">${e(t('mailbox.filterLabel'))}</label>
<input id="mailbox-to" name="to" type="email" autocomplete="off" value="${e(filter ?? '')}">
<button type="submit">${e(t('mailbox.filter'))}</button>
${filter ? `<a href="/dev/mailbox">${e(t('mailbox.showAll'))}</a>` : ''}
</form>
</header>
<main>
<p role="status">${e(summary)}</p>
${articles.join('\n')}
</main>
</body>
</html>
`;
}
