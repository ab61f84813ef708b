// The consent label's links (src/theme/rjsf/fields.tsx) are drawn by TaggedText where react-i18next's
// Trans drew them: the same markup for every shipped language's text.
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, Trans } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../../src/i18n/i18next.ts';
import { TaggedText } from '../../../src/i18n/tagged-text.tsx';
import { LOCALE_DIRECTORIES, localesIn } from './locale-files.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const shippedOf = (locale: string) =>
  JSON.parse(readFileSync(path.join(LOCALE_DIRECTORIES.runtime, `${locale}.json`), 'utf8')) as Record<string, unknown>;

describe('TaggedText', () => {
  it.each(localesIn(LOCALE_DIRECTORIES.runtime))('draws the %s consent text as Trans did', (locale) => {
    const i18n = createI18n(locale, { [locale]: shippedOf(locale) });
    const trans = renderToStaticMarkup(
      <I18nextProvider i18n={i18n}>
        <Trans i18nKey="signup.consent" components={{ privacy: <a href="/privacy" />, terms: <a href="/terms" /> }} />
      </I18nextProvider>,
    );
    const tagged = renderToStaticMarkup(
      <TaggedText
        text={i18n.t('signup.consent')}
        parts={{ privacy: (words) => <a href="/privacy">{words}</a>, terms: (words) => <a href="/terms">{words}</a> }}
      />,
    );
    expect(tagged).toContain('<a href="/privacy">');
    expect(tagged).toBe(trans);
  });

  it('shows the words of a tag it has no drawing for', () => {
    expect(renderToStaticMarkup(<TaggedText text="Read <terms>the terms</terms> first" parts={{}} />)).toBe('Read the terms first');
  });
});
