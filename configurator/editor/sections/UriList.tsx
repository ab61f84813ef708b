// An editable list of URIs (redirect URIs): change or remove each, add one more.
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../src/theme/Button.tsx';
import { TextField } from '../../components/TextField.tsx';
import { getIn } from '../config-path.ts';
import { useEditor } from '../context.ts';
import { useIssue } from './fields.tsx';

export function UriList({
  field,
  label,
  itemLabel,
  addLabel,
  minItems = 0,
}: {
  field: 'redirectUris' | 'postLogoutRedirectUris';
  label: string;
  itemLabel: string;
  addLabel: string;
  minItems?: number;
}) {
  const { t } = useTranslation();
  const { draft, edit } = useEditor();
  const [next, setNext] = useState('');
  const listIssue = useIssue([field]);
  const value = getIn(draft.config, [field]);
  const uris = Array.isArray(value) ? (value as string[]) : [];
  const update = (list: string[]) => edit((config) => ({ ...config, [field]: list }));
  const add = (event: FormEvent) => {
    event.preventDefault();
    const uri = next.trim();
    if (!uri || uris.includes(uri)) return;
    update([...uris, uri]);
    setNext('');
  };
  return (
    <fieldset className="console-fieldset">
      <legend className="foyer-section-title">{label}</legend>
      {uris.length === 0 && <p className="foyer-help">{t('uriList.empty')}</p>}
      <ul className="foyer-plain-list foyer-stack">
        {uris.map((uri, index) => (
          <li key={index} className="console-list-row">
            <UriItem
              field={field}
              index={index}
              uri={uri}
              label={t(itemLabel, { number: index + 1 })}
              onChange={(text) => update(uris.map((item, at) => (at === index ? text : item)))}
            />
            <Button
              variant="secondary"
              size="sm"
              className="console__inline-button"
              disabled={uris.length <= minItems}
              aria-label={t('uriList.removeNamed', { uri })}
              onClick={() => update(uris.filter((_item, at) => at !== index))}
            >
              {t('uriList.remove')}
            </Button>
          </li>
        ))}
      </ul>
      {listIssue && uris.length === 0 && <p className="foyer-field-error">{listIssue}</p>}
      <form className="console-list-row" onSubmit={add}>
        <TextField
          label={t(addLabel)}
          value={next}
          onChange={setNext}
          type="url"
          inputMode="url"
          placeholder="https://app.example.com/callback"
          autoComplete="off"
        />
        <Button type="submit" variant="secondary" size="sm" className="console__inline-button" disabled={!next.trim()}>
          {t('uriList.add')}
        </Button>
      </form>
    </fieldset>
  );
}

function UriItem({
  field,
  index,
  uri,
  label,
  onChange,
}: {
  field: string;
  index: number;
  uri: string;
  label: string;
  onChange(text: string): void;
}) {
  const error = useIssue([field, index]);
  return <TextField label={label} value={uri} onChange={onChange} type="url" inputMode="url" autoComplete="off" error={error} />;
}
