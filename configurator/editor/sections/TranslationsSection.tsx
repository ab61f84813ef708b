// Translations: the languages the app offers and its default; then every text of the runtime with
// Foyer's own text in the chosen language beside the app's override, which rows are overridden (and
// a filter for them), search, and counts of overridden and missing texts.
import { useDeferredValue, useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { defaultLocaleOf, LOCALES, offeredLocales, SUPPORTED_LOCALES, type SupportedLocale } from '../../../common/locales.ts';
import { Button } from '../../../src/theme/Button.tsx';
import type { AppConfig } from '../../../common/app-config.ts';
import { TextField } from '../../components/TextField.tsx';
import { pointer } from '../config-path.ts';
import { useEditor } from '../context.ts';
import { LanguageSelect, languageName } from '../../components/LanguageSelect.tsx';
import { SHIPPED_ENGLISH, useShippedTexts } from '../shipped-texts.ts';
import { LANGUAGE_CODE, flattenTexts, overriddenKeys, searchKeys, setOverride, translationCounts } from '../translations.ts';
import { useIssue } from './fields.tsx';
import { SectionHeading } from './SectionHeading.tsx';

const ALL_KEYS = Object.keys(SHIPPED_ENGLISH);

export function TranslationsSection() {
  const { t } = useTranslation();
  const { draft, edit, issues } = useEditor();
  const translations = draft.config.translations;
  const [added, setAdded] = useState<string[]>([]);
  const languages = useMemo(
    () => [...new Set([...SUPPORTED_LOCALES, ...Object.keys(translations ?? {}), ...added])],
    [translations, added],
  );
  const [language, setLanguage] = useState<string>('en');
  const [query, setQuery] = useState('');
  const [onlyOverridden, setOnlyOverridden] = useState(false);
  const deferredQuery = useDeferredValue(query);
  const shipped = useShippedTexts(language);
  // Foyer's text as the language has it; English while another language loads, or where Foyer has none.
  const defaults = shipped ?? SHIPPED_ENGLISH;
  const overrides = useMemo(() => flattenTexts(translations?.[language]), [translations, language]);
  const counts = translationCounts(SHIPPED_ENGLISH, shipped, overrides);
  const keys = useMemo(() => {
    const found = searchKeys(ALL_KEYS, deferredQuery, defaults, overrides);
    return onlyOverridden ? overriddenKeys(found, overrides) : found;
  }, [deferredQuery, defaults, overrides, onlyOverridden]);
  const languageIssue = Object.entries(issues).find(([path]) => path.startsWith(pointer('translations')))?.[1];

  const setText = (key: string, text: string) =>
    edit((config) => {
      const next = setOverride(config.translations, language, key, text);
      const { translations: _previous, ...rest } = config;
      return next ? { ...rest, translations: next } : rest;
    });

  return (
    <div className="foyer-stack">
      <SectionHeading label="sections.translations" intro="translations.intro" />
      <OfferedLanguages />
      <div className="console-translations__bar">
        <LanguageSelect
          id="translation-language"
          label={t('translations.language')}
          languages={languages}
          value={language}
          onChange={setLanguage}
        />
        <AddLanguage
          onAdd={(code) => {
            setAdded((list) => (list.includes(code) ? list : [...list, code]));
            setLanguage(code);
          }}
        />
      </div>
      <p className="console-translations__counts" role="status">
        {t('translations.counts', { overridden: counts.overridden, missing: counts.missing, total: counts.total })}
      </p>
      {languageIssue && (
        <p className="foyer-field-error" role="alert">
          {t('editor.fieldError', { message: languageIssue })}
        </p>
      )}
      <TextField label={t('translations.search')} type="search" value={query} onChange={setQuery} help={t('translations.searchHelp')} />
      <label className="foyer-checkbox">
        <input type="checkbox" checked={onlyOverridden} onChange={(event) => setOnlyOverridden(event.target.checked)} />
        {t('translations.onlyOverridden')}
      </label>
      <p className="foyer-help" role="status">
        {t('translations.shown', { count: keys.length, total: ALL_KEYS.length })}
      </p>
      <ul className="foyer-plain-list console-translations__list">
        {keys.map((key) => (
          <TranslationRow
            key={`${language}:${key}`}
            textKey={key}
            defaultText={defaults[key] ?? SHIPPED_ENGLISH[key]!}
            defaultLanguage={shipped?.[key] ? language : 'en'}
            value={overrides[key] ?? ''}
            missing={!overrides[key] && !shipped?.[key]}
            error={issues[pointer('translations', language, ...key.split('.'))]}
            onChange={(text) => setText(key, text)}
          />
        ))}
      </ul>
    </div>
  );
}

function TranslationRow({
  textKey,
  defaultText,
  defaultLanguage,
  value,
  missing,
  error,
  onChange,
}: {
  textKey: string;
  defaultText: string;
  /** The language Foyer's text is in (the row's language, or English where Foyer has none). */
  defaultLanguage: string;
  value: string;
  missing: boolean;
  error?: string;
  onChange(text: string): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <li className="console-translation">
      <div className="console-translation__key">
        <label htmlFor={id}>
          <code>{textKey}</code>
        </label>
        {missing && <span className="console__badge console__badge--missing">{t('translations.missing')}</span>}
        {value && <span className="console__badge console__badge--overridden">{t('translations.overridden')}</span>}
      </div>
      <p id={`${id}-default`} className="console-translation__default" lang={defaultLanguage}>
        <span className="foyer-visually-hidden">{t('translations.defaultText')} </span>
        {defaultText}
      </p>
      <input
        id={id}
        className="foyer-input"
        value={value}
        placeholder={t('translations.placeholder')}
        aria-describedby={`${id}-default${error ? ` ${id}-error` : ''}`}
        aria-invalid={error ? true : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {error && (
        <p id={`${id}-error`} className="foyer-field-error">
          {t('editor.fieldError', { message: error })}
        </p>
      )}
    </li>
  );
}

/** Which languages the sign-in pages offer (absent: every shipped one) and the default among them. */
function OfferedLanguages() {
  const { t, i18n } = useTranslation();
  const { draft, edit } = useEditor();
  const offered = offeredLocales(draft.config);
  const defaultLanguage = defaultLocaleOf(draft.config);
  const languagesIssue = useIssue(['languages']);
  const defaultIssue = useIssue(['defaultLanguage']);
  const helpId = useId();

  const setOffered = (locale: SupportedLocale, on: boolean) =>
    edit((config) => {
      const next = SUPPORTED_LOCALES.filter((code) => (code === locale ? on : offered.includes(code)));
      const { languages: _languages, defaultLanguage: previousDefault, ...rest } = config;
      const updated: AppConfig = next.length === SUPPORTED_LOCALES.length ? rest : { ...rest, languages: next };
      // A default the app no longer offers goes: English, or the first offered language, takes over.
      return previousDefault && next.includes(previousDefault as SupportedLocale)
        ? { ...updated, defaultLanguage: previousDefault }
        : updated;
    });

  return (
    <fieldset className="console-fieldset" aria-describedby={helpId}>
      <legend className="foyer-section-title">{t('translations.offered')}</legend>
      <p id={helpId} className="foyer-help">
        {t('translations.offeredHelp')}
      </p>
      <ul className="foyer-plain-list console-languages">
        {SUPPORTED_LOCALES.map((locale) => {
          const checked = offered.includes(locale);
          return (
            <li key={locale}>
              <label className="foyer-checkbox">
                <input
                  type="checkbox"
                  checked={checked}
                  // The last offered language stays: the pages need one.
                  disabled={checked && offered.length === 1}
                  onChange={(event) => setOffered(locale, event.target.checked)}
                />
                <span lang={locale} dir={LOCALES[locale].dir}>
                  {LOCALES[locale].endonym}
                </span>
                <span className="foyer-help">{languageName(locale, i18n.language)}</span>
              </label>
            </li>
          );
        })}
      </ul>
      {languagesIssue && <p className="foyer-field-error">{languagesIssue}</p>}
      <div className="foyer-field">
        <label className="foyer-label" htmlFor="default-language">
          {t('translations.defaultLanguage')}
        </label>
        <select
          id="default-language"
          className="foyer-select"
          value={defaultLanguage}
          aria-describedby="default-language-help"
          aria-invalid={defaultIssue ? true : undefined}
          onChange={(event) => edit((config) => ({ ...config, defaultLanguage: offered.find((locale) => locale === event.target.value) }))}
        >
          {offered.map((locale) => (
            <option key={locale} value={locale} lang={locale}>
              {LOCALES[locale].endonym}
            </option>
          ))}
        </select>
        <p id="default-language-help" className="foyer-help">
          {t('translations.defaultLanguageHelp')}
        </p>
        {defaultIssue && <p className="foyer-field-error">{defaultIssue}</p>}
      </div>
    </fieldset>
  );
}

function AddLanguage({ onAdd }: { onAdd(code: string): void }) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [invalid, setInvalid] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const candidate = code.trim();
    if (!LANGUAGE_CODE.test(candidate)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    setCode('');
    onAdd(candidate);
  };
  return (
    <form className="console-list-row" onSubmit={submit} noValidate>
      <TextField
        label={t('translations.addLanguage')}
        value={code}
        onChange={(next) => {
          setCode(next);
          setInvalid(false);
        }}
        placeholder="de"
        autoComplete="off"
        spellCheck={false}
        help={t('translations.addLanguageHelp')}
        error={invalid ? t('translations.invalidCode') : undefined}
      />
      <Button type="submit" variant="secondary" size="sm" className="console__inline-button" disabled={!code.trim()}>
        {t('translations.add')}
      </Button>
    </form>
  );
}
