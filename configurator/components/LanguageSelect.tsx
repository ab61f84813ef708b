// A labelled select of language codes, each shown by the browser's name for it in the console's language.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** "Swedish (sv)": the browser's name for a language code, with the code. */
export function languageName(code: string, displayLanguage: string): string {
  try {
    const name = new Intl.DisplayNames([displayLanguage], { type: 'language' }).of(code);
    return name && name !== code ? `${name} (${code})` : code;
  } catch {
    return code;
  }
}

export interface LanguageSelectProps {
  id: string;
  label: ReactNode;
  languages: readonly string[];
  value: string;
  onChange(language: string): void;
}

export function LanguageSelect({ id, label, languages, value, onChange }: LanguageSelectProps) {
  const { i18n } = useTranslation();
  return (
    <div className="foyer-field">
      <label className="foyer-label" htmlFor={id}>
        {label}
      </label>
      <select id={id} className="foyer-select" value={value} onChange={(event) => onChange(event.target.value)}>
        {languages.map((code) => (
          <option key={code} value={code}>
            {languageName(code, i18n.language)}
          </option>
        ))}
      </select>
    </div>
  );
}
