// A labelled input with help text and an error message, both tied to the input for screen readers.
import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  label: ReactNode;
  value: string;
  onChange(value: string): void;
  help?: ReactNode;
  error?: string;
  /** A monospaced text area of this many rows instead of an input, for pasted keys and documents. */
  rows?: number;
}

export function TextField({ label, value, onChange, help, error, rows, id, className, ...rest }: TextFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const helpId = `${inputId}-help`;
  const errorId = `${inputId}-error`;
  const describedBy = [help ? helpId : undefined, error ? errorId : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div className={['foyer-field', className].filter(Boolean).join(' ')}>
      <label className="foyer-label" htmlFor={inputId}>
        {label}
      </label>
      {rows ? (
        <textarea
          id={inputId}
          className="foyer-input console__textarea console__mono"
          rows={rows}
          spellCheck={false}
          autoComplete="off"
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value)}
        />
      ) : (
        <input
          {...rest}
          id={inputId}
          className="foyer-input"
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      {help && (
        <p id={helpId} className="foyer-help">
          {help}
        </p>
      )}
      {error && (
        <p id={errorId} className="foyer-field-error">
          {error}
        </p>
      )}
    </div>
  );
}
