// Translations: every text of the runtime (src/i18n/locales/en.json) with Foyer's text beside the
// app's override, per language; search; counts of overridden and missing texts.
import { useDeferredValue, useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import runtimeEn from '../../../src/i18n/locales/en.json';
import { SUPPORTED_LOCALES } from '../../../common/locales.ts';
import { Button } from '../../../src/theme/Button.tsx';
import { TextField } from '../../components/TextField.tsx';
import { pointer } from '../config-path.ts';
import { useEditor } from '../context.ts';
import { LanguageSelect } from '../../components/LanguageSelect.tsx';
import { LANGUAGE_CODE, flattenTexts, searchKeys, setOverride, translationCounts, type FlatTexts } from '../translations.ts';
import { SectionHeading } from './SectionHeading.tsx';

/** The texts Foyer itself ships, per language. */
const SHIPPED: Record<string, FlatTexts> = { en: flattenTexts(runtimeEn) };
const DEFAULTS = SHIPPED.en!;
const ALL_KEYS = Object.keys(DEFAULTS);

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
  const deferredQuery = useDeferredValue(query);
  const overrides = useMemo(() => flattenTexts(translations?.[language]), [translations, language]);
  const counts = translationCounts(DEFAULTS, SHIPPED[language], overrides);
  const keys = useMemo(() => searchKeys(ALL_KEYS, deferredQuery, DEFAULTS, overrides), [deferredQuery, overrides]);
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
      <div className="console-translations__bar">
        <LanguageSelect id="translation-language" label={t('translations.language')} languages={languages} value={language} onChange={setLanguage} />
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
      <p className="foyer-help" role="status">
        {t('translations.shown', { count: keys.length, total: ALL_KEYS.length })}
      </p>
      <ul className="foyer-plain-list console-translations__list">
        {keys.map((key) => (
          <TranslationRow
            key={`${language}:${key}`}
            textKey={key}
            defaultText={DEFAULTS[key]!}
            value={overrides[key] ?? ''}
            missing={!overrides[key] && !SHIPPED[language]?.[key]}
            error={issues[pointer('translations', language, ...key.split('.'))]}
            onChange={(text) => setText(key, text)}
          />
        ))}
      </ul>
    </div>
  );
}

function TranslationRow({ textKey, defaultText, value, missing, error, onChange }: {
  textKey: string;
  defaultText: string;
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
      </div>
      <p id={`${id}-default`} className="console-translation__default">
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
