// Rendering a mail: branding, both parts, translations and app overrides, escaping, refused links.
import { describe, expect, it } from 'vitest';
import type { AppSettings } from '../../../server/db/app-settings.ts';
import { brandOf, contrastRatio, parseColor } from '../../../server/notify/brand.ts';
import { linksOf, RefusedMessage, renderMessage } from '../../../server/notify/render.ts';
import { bundledLanguages, bundledTexts, createTranslator } from '../../../server/notify/texts.ts';
import { SUPPORTED_LOCALES } from '../../../common/locales.ts';
import type { MessageKind, OutgoingMessage } from '../../../server/notify/types.ts';

const LINK = 'https://ui.example.com/auth/set-password/abc123';

function render(message: Partial<OutgoingMessage> & { kind: MessageKind }, settings: AppSettings = {}, name = 'Acme Cloud') {
  const full: OutgoingMessage = { appId: 'app', to: 'ada@example.com', link: LINK, expiresInSeconds: 3600, ...message };
  return renderMessage(full, brandOf({ name, settings }), createTranslator(full.locale, settings.translations));
}

/** The button: the anchor whose style carries a background. */
function buttonStyle(html: string): { background: string; color: string } {
  const style = /<a href="[^"]*" style="([^"]*background:[^"]*)">/.exec(html)?.[1] ?? '';
  return {
    background: /background:(#[0-9a-f]{6})/.exec(style)?.[1] ?? '',
    color: /;color:(#[0-9a-f]{6})/.exec(style)?.[1] ?? '',
  };
}

describe('mail rendering', () => {
  it('brands a reset mail with the app name, logo and colour, with the link in both parts', () => {
    const mail = render(
      { kind: 'reset' },
      {
        logo: 'https://cdn.example.com/acme.png',
        branding: { colors: { primary: '#0a7d3b' } },
      },
    );
    expect(mail.subject).toBe('Reset your Acme Cloud password');
    expect(mail.language).toBe('en');
    expect(mail.html).toContain('<html lang="en">');
    expect(mail.html).toContain('<title>Reset your Acme Cloud password</title>');
    expect(mail.html).toContain('<img src="https://cdn.example.com/acme.png" alt="Acme Cloud"');
    expect(mail.html).toContain('<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:#1f2937">Reset your password</h1>');
    expect(buttonStyle(mail.html)).toEqual({ background: '#0a7d3b', color: '#ffffff' });
    expect(linksOf(mail.html)).toEqual([LINK]);
    expect(mail.text).toContain(`Choose a new password: ${LINK}`);
    expect(mail.text.split('\n')[0]).toBe('Acme Cloud');
    expect(mail.text).toContain('expires in 1 hour');
    expect(mail.text).toContain('Your password stays unchanged.');
  });

  it('shows the name as text when the app has no usable logo', () => {
    for (const logo of [undefined, null, '', 'javascript:alert(1)', '/relative/logo.png']) {
      const mail = render({ kind: 'signup' }, { logo });
      expect(mail.html).not.toContain('<img');
      expect(mail.html).toContain('font-weight:700;color:#1f2937">Acme Cloud</p>');
    }
  });

  it('puts black or white text on the primary colour, whichever reads at 4.5:1 or better', () => {
    for (const primary of ['#ffe066', '#1f42dd', '#777777', 'rgb(61, 194, 255)', '#000', '#fff', '#e11d48']) {
      const { background, color } = buttonStyle(render({ kind: 'magic-link' }, { branding: { colors: { primary } } }).html);
      expect(background).toBe(
        `#${parseColor(primary)!
          .map((c) => c.toString(16).padStart(2, '0'))
          .join('')}`,
      );
      expect(contrastRatio(parseColor(background)!, parseColor(color)!)).toBeGreaterThanOrEqual(4.5);
    }
    expect(buttonStyle(render({ kind: 'reset' }, { branding: { colors: { primary: '#ffe066' } } }).html).color).toBe('#000000');
  });

  it('ignores a primary colour that is not a plain colour, so no CSS reaches the style attribute', () => {
    const mail = render({ kind: 'reset' }, { branding: { colors: { primary: 'red;background:url(https://evil.example)' } } });
    expect(buttonStyle(mail.html).background).toBe('#1f42dd');
    expect(mail.html).not.toContain('evil.example');
  });

  it('states each kind of link with its lifetime', () => {
    expect(render({ kind: 'magic-link', expiresInSeconds: 15 * 60 }).text).toContain('valid for 15 minutes');
    expect(render({ kind: 'signup', expiresInSeconds: 7 * 24 * 3600 }).text).toContain('expires in 7 days');
    expect(render({ kind: 'reset', expiresInSeconds: 1800 }).text).toContain('expires in 30 minutes');
    expect(render({ kind: 'reset', expiresInSeconds: 60 }).text).toContain('expires in 1 minute.');
  });

  it('words the existing-account signup so the owner knows what happened and that the password is unchanged', () => {
    const mail = render({ kind: 'signup-existing' });
    expect(mail.subject).toBe('Someone signed up to Acme Cloud with your e-mail address');
    expect(mail.text).toContain('If it was you, confirm');
    expect(mail.text).toContain('If it was not you, ignore this e-mail. Your password is unchanged.');
  });

  it('names the workspace of an invitation, quoted, and asks to accept it', () => {
    const invite = render({ kind: 'invite', workspace: 'Globex' });
    expect(invite.subject).toBe('You were invited to “Globex”');
    expect(invite.text).toContain('Accept invitation: ');
    const existing = render({ kind: 'invite-existing', workspace: 'Globex' });
    expect(existing.subject).toBe('You were invited to “Globex”');
    expect(existing.text).toContain('Accept invitation: ');
    expect(existing.text).toContain('with your existing account');
    expect(() => render({ kind: 'invite' })).toThrow(RefusedMessage);
    expect(() => render({ kind: 'invite-existing', workspace: '  ' })).toThrow(RefusedMessage);
  });

  it('names the workspace and the domain of a domain proof, with the lifetime its sender states', () => {
    const proof = render({ kind: 'domain-proof', workspace: 'Globex', domain: 'globex.example', expiresInSeconds: 24 * 3600 });
    expect(proof.subject).toBe('Confirm globex.example for “Globex”');
    expect(proof.text).toContain('The link works once and expires in 1 day.');
    expect(proof.text).toContain('Review and confirm: ');
    expect(() => render({ kind: 'domain-proof', workspace: 'Globex', expiresInSeconds: 60 })).toThrow(RefusedMessage);
  });

  it('refuses links that are not absolute http(s) URLs', () => {
    for (const link of ['javascript:alert(1)', '/auth/set-password/abc', 'data:text/html,hi', 'mailto:a@b.c', 'nonsense']) {
      expect(() => render({ kind: 'reset', link })).toThrow(RefusedMessage);
    }
    expect(linksOf(render({ kind: 'reset', link: 'http://localhost:8080/auth/set-password/x' }).html)).toEqual([
      'http://localhost:8080/auth/set-password/x',
    ]);
  });

  it('escapes a hostile workspace and app name in the HTML part, and keeps the text part literal', () => {
    const workspace = '<script>alert("x")</script> & <img src=x onerror=alert(1)>';
    const mail = render({ kind: 'invite', workspace }, {}, 'Evil "App" <b>');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<img src=x');
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;img src=x onerror=alert(1)&gt;');
    expect(mail.html).toContain('Evil &quot;App&quot; &lt;b&gt;');
    expect(mail.subject).toBe(`You were invited to “${workspace}”`);
    expect(mail.text).toContain(`You were invited to join “${workspace}” on Evil "App" <b>.`);
  });

  it('keeps a subject on one line whatever the workspace name holds', () => {
    const mail = render({ kind: 'invite', workspace: 'Globex\r\nBcc: victim@example.com' });
    expect(mail.subject).toBe('You were invited to “Globex Bcc: victim@example[.]com”');
  });

  it('never lets a workspace name become a link a mail client would make clickable', () => {
    for (const [workspace, shown] of [
      ['Claim your prize at evil.example', 'Claim your prize at evil[.]example'],
      ['Visit https://evil.example/claim?now=1', 'Visit evil[.]example/claim?now=1'],
      ['www.evil.example', 'www[.]evil[.]example'],
      ['Write to prize@evil.example', 'Write to prize@evil[.]example'],
      ['Claim at evil。example or evil．example', 'Claim at evil[.]example or evil[.]example'],
      ['Acme Inc.', 'Acme Inc.'],
      ['Version 2.0 team', 'Version 2.0 team'],
    ]) {
      for (const kind of ['invite', 'invite-existing'] as const) {
        const mail = render({ kind, workspace });
        expect(mail.subject, workspace).toBe(`You were invited to “${shown}”`);
        expect(mail.text, workspace).toContain(`You were invited to join “${shown}” on Acme Cloud.`);
        expect(mail.text, workspace).not.toMatch(/evil[.。．]example|:\/\/evil/);
        expect(linksOf(mail.html)).toEqual([LINK]);
      }
    }
  });

  it('escapes a link with markup characters in its attribute', () => {
    const mail = render({ kind: 'reset', link: 'https://ui.example.com/x?a=1&b="2"' });
    expect(mail.html).toContain('href="https://ui.example.com/x?a=1&amp;b=%222%22"');
    expect(linksOf(mail.html)).toEqual(['https://ui.example.com/x?a=1&b=%222%22']);
  });
});

describe('mail languages', () => {
  it('writes Swedish for sv and sv-SE, and English for languages it has no texts for', () => {
    const swedish = render({ kind: 'reset', locale: 'sv' });
    expect(swedish.subject).toBe('Återställ ditt lösenord för Acme Cloud');
    expect(swedish.language).toBe('sv');
    expect(swedish.html).toContain('<html lang="sv">');
    expect(swedish.text).toContain(`Välj ett nytt lösenord: ${LINK}`);
    expect(swedish.text).toContain('slutar gälla om 1 timme');
    expect(render({ kind: 'magic-link', locale: 'sv-SE', expiresInSeconds: 15 * 60 }).text).toContain('gäller i 15 minuter');
    expect(render({ kind: 'invite', workspace: 'Globex', locale: 'SV' }).subject).toBe('Du har bjudits in till ”Globex”');
    for (const locale of ['eo', '', null, undefined, 'x-klingon', 'sv\r\nBcc: x', '"><script>']) {
      expect(render({ kind: 'reset', locale }).language).toBe('en');
    }
  });

  it("uses the app's mail overrides for the recipient's language, escaped, and ignores other keys", () => {
    const settings: AppSettings = {
      translations: {
        sv: { 'mail.reset.subject': 'Nytt lösenord till {{app}}', 'mail.common.footer': '<b>Hälsningar</b>', 'login.title': 'x' },
        eo: { 'mail.reset.subject': 'Restarigu vian pasvorton de {{app}}' },
        ga: { 'login.title': 'Logáil isteach' },
      },
    };
    const swedish = render({ kind: 'reset', locale: 'sv' }, settings);
    expect(swedish.subject).toBe('Nytt lösenord till Acme Cloud');
    expect(swedish.html).toContain('&lt;b&gt;Hälsningar&lt;/b&gt;');
    expect(swedish.text).toContain('Välj ett nytt lösenord');
    const esperanto = render({ kind: 'reset', locale: 'eo' }, settings);
    expect(esperanto.language).toBe('eo');
    expect(esperanto.subject).toBe('Restarigu vian pasvorton de Acme Cloud');
    expect(esperanto.text).toContain('Choose a new password');
    expect(render({ kind: 'reset', locale: 'ga' }, settings).language).toBe('en');
  });

  it('renders for a language tag that Intl does not know, when the app has mail texts for it', () => {
    const settings: AppSettings = { translations: { 'x-pirate': { 'mail.magic-link.subject': 'Ahoy, a link to {{app}}' } } };
    const mail = render({ kind: 'magic-link', locale: 'x-pirate', expiresInSeconds: 15 * 60 }, settings);
    expect(mail.language).toBe('x-pirate');
    expect(mail.subject).toBe('Ahoy, a link to Acme Cloud');
    expect(mail.text).toContain('valid for 15 minutes');
  });

  it("leaves a placeholder empty when the app's text names a value the mail does not have", () => {
    const settings: AppSettings = { translations: { en: { 'mail.magic-link.subject': '{{workspace}}Your link to {{app}}' } } };
    expect(render({ kind: 'magic-link', locale: 'en' }, settings).subject).toBe('Your link to Acme Cloud');
  });

  it('ships every supported language, each with the mail texts English has (plural forms by its own rules)', () => {
    // tests/unit/i18n/locales.test.ts checks each plural category; here, that every text exists.
    const mailTexts = (language: string) =>
      [
        ...new Set(
          Object.keys(bundledTexts(language))
            .filter((key) => key.startsWith('mail.'))
            .map((key) => key.replace(/_(zero|one|two|few|many|other)$/, '')),
        ),
      ].sort();
    expect([...bundledLanguages].sort()).toEqual([...SUPPORTED_LOCALES].sort());
    for (const language of bundledLanguages) expect(mailTexts(language), language).toEqual(mailTexts('en'));
  });

  it('writes each shipped language with its own plural forms and digits', () => {
    expect(render({ kind: 'reset', locale: 'de' }).text).toContain('läuft in 1 Stunde ab');
    expect(render({ kind: 'magic-link', locale: 'fr', expiresInSeconds: 15 * 60 }).text).toContain('reste valable 15 minutes');
    expect(render({ kind: 'reset', locale: 'pt-br' }).language).toBe('pt-BR');
    expect(render({ kind: 'reset', locale: 'no' }).language).toBe('nb');
  });
});
