// One message, rendered once for every transport: subject, an HTML part (table layout and inline
// styles, which mail clients need) and a plain-text part with the same sentences. Every sentence is
// escaped as a whole, so app names, workspace names and overridden texts cannot inject markup.
import { isAbsoluteHttpUrl, type Brand } from './brand.ts';
import type { Translator } from './texts.ts';
import type { MessageKind, OutgoingAppMessage, OutgoingMessage } from './types.ts';

export interface RenderedMessage {
  subject: string;
  html: string;
  text: string;
  language: string;
}

/** A message that must not go out as asked (a link that is not absolute http(s), a missing workspace). */
export class RefusedMessage extends Error {}

const NEEDS_WORKSPACE: ReadonlySet<MessageKind> = new Set(['invite', 'invite-existing', 'domain-proof']);

export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** 15 → "15 minutes", 60 → "1 hour", 10080 → "7 days": the largest whole unit. */
function duration(seconds: number, translator: Translator): string {
  const minutes = Math.max(1, Math.round(seconds / 60));
  if (minutes % 1440 === 0) return translator.t('mail.common.duration.days', { count: minutes / 1440 });
  if (minutes % 60 === 0) return translator.t('mail.common.duration.hours', { count: minutes / 60 });
  return translator.t('mail.common.duration.minutes', { count: minutes });
}

/** A dot joining a name's labels as in a domain name (the IDNA dots too), which mail clients turn into links. */
const DOMAIN_DOT = /(?<=[\p{L}\p{N}])[.\u3002\uFF0E\uFF61](?=\p{L})/gu;
const SCHEME = /\b[a-z][a-z\d+.-]*:\/\//giu;

/**
 * A workspace name as mail text: anyone names a workspace, and invites anyone to it, so the name is
 * quoted (it reads as a name, not as the sender's words) and can never become a link a mail client
 * makes clickable ("Claim your prize at evil.example" reads "…evil[.]example").
 */
function quotedName(name: string, translator: Translator): string {
  return translator.t('mail.common.quoted', { text: name.replace(SCHEME, '').replace(DOMAIN_DOT, '[.]') });
}

/** A subject is one header line. */
function oneLine(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const TEXT_COLOR = '#1f2937';
const MUTED_COLOR = '#4b5563';
const LINK_COLOR = '#1d4ed8';

export function renderMessage(message: OutgoingMessage, brand: Brand, translator: Translator): RenderedMessage {
  if (!isAbsoluteHttpUrl(message.link)) throw new RefusedMessage('The link must be an absolute http(s) URL');
  const workspace = message.workspace?.trim() ?? '';
  if (NEEDS_WORKSPACE.has(message.kind) && !workspace) throw new RefusedMessage('An invitation names its workspace');
  const domain = message.domain?.trim() ?? '';
  if (message.kind === 'domain-proof' && !domain) throw new RefusedMessage('A domain proof names its domain');
  const link = new URL(message.link).href;
  const values = {
    app: brand.name,
    workspace: workspace && quotedName(workspace, translator),
    domain,
    duration: duration(message.expiresInSeconds, translator),
  };
  const text = (key: string) => translator.t(`mail.${message.kind}.${key}`, values);

  return layout(
    {
      subject: oneLine(text('subject')),
      heading: text('heading'),
      paragraphs: [text('intro')],
      cta: { url: link, title: text('button') },
      smallPrint: [text('expiry'), text('note')],
      footer: translator.t('mail.common.footer', values),
    },
    brand,
    translator,
  );
}

/** A message an app's back end wrote: its subject and text (blank lines part paragraphs), an optional button. */
export function renderAppMessage(message: OutgoingAppMessage, brand: Brand, translator: Translator): RenderedMessage {
  if (message.cta && !isAbsoluteHttpUrl(message.cta.url)) throw new RefusedMessage('The link must be an absolute http(s) URL');
  const subject = oneLine(message.subject);
  const paragraphs = message.body
    .split(/\r?\n\s*\r?\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '');
  return layout(
    {
      subject,
      heading: subject,
      paragraphs,
      cta: message.cta ? { url: new URL(message.cta.url).href, title: oneLine(message.cta.title) } : undefined,
      smallPrint: [],
      footer: translator.t('mail.common.footer', { app: brand.name }),
    },
    brand,
    translator,
  );
}

interface MessageParts {
  subject: string;
  heading: string;
  paragraphs: string[];
  cta: { url: string; title: string } | undefined;
  smallPrint: string[];
  footer: string;
}

/** The branded mail around the parts; every part is text, escaped here. */
function layout(
  { subject, heading, paragraphs, cta, smallPrint, footer }: MessageParts,
  brand: Brand,
  translator: Translator,
): RenderedMessage {
  const fallback = translator.t('mail.common.fallback');
  const e = escapeHtml;
  const masthead = brand.logoUrl
    ? `<img src="${e(brand.logoUrl)}" alt="${e(brand.name)}" height="40" style="display:block;height:40px;width:auto;max-width:240px;border:0">`
    : `<p style="margin:0;font-size:20px;font-weight:700;color:${TEXT_COLOR}">${e(brand.name)}</p>`;
  const paragraph = (content: string, style = '') =>
    `<p style="margin:0 0 16px;font-size:16px;line-height:1.5;color:${TEXT_COLOR};${style}">${e(content)}</p>`;
  const button = cta
    ? `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 24px">
<tr><td style="border-radius:6px;background:${brand.buttonColor}"><a href="${e(cta.url)}" style="display:inline-block;padding:12px 24px;border-radius:6px;background:${brand.buttonColor};color:${brand.buttonTextColor};font-size:16px;font-weight:600;text-decoration:none">${e(cta.title)}</a></td></tr>
</table>
`
    : '';
  const fallbackLink = cta
    ? `<p style="margin:0 0 16px;font-size:14px;line-height:1.5;color:${MUTED_COLOR}">${e(fallback)}<br><a href="${e(cta.url)}" style="color:${LINK_COLOR};text-decoration:underline;word-break:break-all">${e(cta.url)}</a></p>
`
    : '';

  const html = `<!doctype html>
<html lang="${e(translator.language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(subject)}</title>
</head>
<body style="margin:0;padding:0;background:#f3f4f6;font-family:${FONT}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f3f4f6">
<tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;background:#ffffff;border-radius:8px">
<tr><td style="padding:24px 32px 8px">${masthead}</td></tr>
<tr><td style="padding:8px 32px 8px">
<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:${TEXT_COLOR}">${e(heading)}</h1>
${paragraphs.map((content) => paragraph(content)).join('\n')}
${button}${smallPrint.map((content) => paragraph(content, `font-size:14px;color:${MUTED_COLOR}`)).join('\n')}
${fallbackLink}</td></tr>
<tr><td style="padding:16px 32px 24px;border-top:1px solid #e5e7eb"><p style="margin:0;font-size:13px;line-height:1.5;color:${MUTED_COLOR}">${e(footer)}</p></td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;

  const plain = [
    brand.name,
    '',
    heading,
    '',
    ...paragraphs.flatMap((content) => [content, '']),
    ...(cta ? [`${cta.title}: ${cta.url}`, ''] : []),
    ...smallPrint.flatMap((content) => [content, '']),
    '--',
    footer,
    '',
  ].join('\n');

  return { subject, html, text: plain, language: translator.language };
}

const HREF = /\bhref="([^"]*)"/g;
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** The absolute http(s) links of a rendered message, in order, each once. */
export function linksOf(html: string | null | undefined): string[] {
  const links = [...(html ?? '').matchAll(HREF)]
    .map((match) => match[1]!.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]!))
    .filter((href) => isAbsoluteHttpUrl(href));
  return [...new Set(links)];
}
