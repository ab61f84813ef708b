// A labelled select of language codes, each shown by the browser's name for it.
import type { ReactNode } from 'react';

/** "Swedish (sv)": the browser's name for a language code, with the code. */
function languageName(code: string, displayLanguage = 'en'): string {
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
  return (
    <div className="foyer-field">
      <label className="foyer-label" htmlFor={id}>
        {label}
      </label>
      <select id={id} className="foyer-select" value={value} onChange={(event) => onChange(event.target.value)}>
        {languages.map((code) => (
          <option key={code} value={code}>
            {languageName(code)}
          </option>
        ))}
      </select>
    </div>
  );
}
