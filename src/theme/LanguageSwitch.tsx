// The signed-out screens' language switch: a native select (keyboard and screen readers know it),
// each language named in itself and marked with its own lang, so it is read in its own voice.
import { useId, useSyncExternalStore } from 'react';
import { LOCALES, type SupportedLocale } from '../../common/locales.ts';

export interface LanguageSwitchProps {
  label: string;
  languages: readonly SupportedLocale[];
  value: string;
  onChange(locale: SupportedLocale): void;
}

const subscribeToNothing = () => () => undefined;

export function LanguageSwitch({ label, languages, value, onChange }: LanguageSwitchProps) {
  const id = useId();
  // Off in the server's drawing until the runtime hydrates it: a choice made before would be lost.
  // Drawn off, it lists the page's language only: laying out every language's name (in its own script,
  // each font looked up) would delay the page's first paint for a list nobody can open yet.
  const interactive = useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
  const listed = interactive ? languages : languages.filter((locale) => locale === value);
  return (
    <span className="foyer-language-switch">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className="foyer-select foyer-select--compact"
        value={value}
        disabled={!interactive}
        onChange={(event) => onChange(event.target.value as SupportedLocale)}
      >
        {listed.map((locale) => (
          <option key={locale} value={locale} lang={locale} dir={LOCALES[locale].dir}>
            {LOCALES[locale].endonym}
          </option>
        ))}
      </select>
    </span>
  );
}
