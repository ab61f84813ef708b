// Editor inputs bound to one path of the draft: they show the value, write edits into the draft and
// show the server's refusal of that path.
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Switch } from '../../../src/theme/Switch.tsx';
import { TextField, type TextFieldProps } from '../../components/TextField.tsx';
import { getIn, pointer, type PathSegment } from '../config-path.ts';
import { useEditor } from '../context.ts';

/** The refusal of `path` (or of anything inside it), translated around the server's message. */
export function useIssue(path: PathSegment[]): string | undefined {
  const { t } = useTranslation();
  const { issues } = useEditor();
  const at = pointer(...path);
  const entry = Object.entries(issues).find(([issuePath]) => issuePath === at || issuePath.startsWith(`${at}/`));
  return entry ? t('editor.fieldError', { message: entry[1] }) : undefined;
}

export function PathSwitch({ path, label, defaultValue = false }: { path: PathSegment[]; label: ReactNode; defaultValue?: boolean }) {
  const { draft, set } = useEditor();
  const error = useIssue(path);
  const errorId = useId();
  const value = getIn(draft.config, path);
  return (
    <div className="console-switch-row">
      <Switch
        checked={typeof value === 'boolean' ? value : defaultValue}
        label={label}
        onChange={(checked) => set(path, checked)}
        describedBy={error ? errorId : undefined}
      />
      {error && (
        <p id={errorId} className="foyer-field-error">
          {error}
        </p>
      )}
    </div>
  );
}

export function PathText({ path, ...rest }: { path: PathSegment[] } & Omit<TextFieldProps, 'value' | 'onChange' | 'error'>) {
  const { draft, set } = useEditor();
  const error = useIssue(path);
  const value = getIn(draft.config, path);
  return <TextField {...rest} value={typeof value === 'string' ? value : ''} onChange={(text) => set(path, text)} error={error} />;
}

/** A whole number of seconds; an emptied field removes the value (Foyer's default applies). */
export function PathInteger({ path, ...rest }: { path: PathSegment[] } & Omit<TextFieldProps, 'value' | 'onChange' | 'error'>) {
  const { draft, set } = useEditor();
  const error = useIssue(path);
  const value = getIn(draft.config, path);
  return (
    <TextField
      {...rest}
      type="number"
      inputMode="numeric"
      step={1}
      value={typeof value === 'number' ? String(value) : ''}
      onChange={(text) => set(path, text.trim() === '' ? undefined : Number(text))}
      error={error}
    />
  );
}
