// The shell of the few pages the auth service draws itself, without the runtime (a domain proof's
// confirmation, an enterprise link's): no script, no style, in the person's language and direction.
import { localeDirection } from '../../common/locales.ts';
import { escapeHtml } from './render.ts';

/** A whole page around `body` (HTML its caller escaped), titled `title` (text). */
export function renderPlainPage(language: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="${escapeHtml(language)}" dir="${localeDirection(language)}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)}</title>
</head>
<body>
  <main>
    <h1>${escapeHtml(title)}</h1>
    ${body}
  </main>
</body>
</html>`;
}
