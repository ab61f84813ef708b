// The theme's renderer of plain forms (src/flow/plain-form.ts): the same markup, ids and
// aria-describedby links as Foyer's RJSF theme (./rjsf/templates.tsx), so both kinds of form look and
// read alike. Texts arrive translated; values and errors are the caller's.
import type { FormEvent, ReactNode } from 'react';
import type { PlainField } from '../flow/plain-form.ts';

export interface PlainFormProps {
  fields: PlainField[];
  values: Record<string, unknown>;
  /** Translated messages per field name. */
  errors: Record<string, string[]>;
  translate(key: string): string;
  /** The new values; a cleared field is undefined, as RJSF makes it. */
  onChange(values: Record<string, unknown>): void;
  onSubmit(): void;
  className?: string;
  children?: ReactNode;
}

const fieldId = (name: string) => `root_${name}`;

export function PlainForm({ fields, values, errors, translate, onChange, onSubmit, className, children }: PlainFormProps) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form className={className} noValidate onSubmit={submit}>
      <div>
        <div className="foyer-stack">
          {fields.map((field) => {
            const id = fieldId(field.name);
            const messages = errors[field.name] ?? [];
            const describedBy = [messages.length ? `${id}__error` : '', field.help ? `${id}__help` : ''].filter(Boolean).join(' ');
            const value = values[field.name];
            return (
              <div key={field.name} className="foyer-field">
                <label className="foyer-label" htmlFor={id}>
                  {translate(field.title)}
                </label>
                <input
                  type={field.inputType}
                  id={id}
                  name={id}
                  className="foyer-input"
                  value={typeof value === 'string' ? value : ''}
                  placeholder={field.placeholder ? translate(field.placeholder) : undefined}
                  autoComplete={field.autoComplete}
                  readOnly={field.readOnly}
                  required={field.required}
                  aria-required={field.required || undefined}
                  aria-invalid={messages.length ? true : undefined}
                  aria-describedby={describedBy || undefined}
                  onChange={(event) => {
                    onChange({ ...values, [field.name]: event.target.value === '' ? undefined : event.target.value });
                  }}
                />
                {messages.length > 0 && (
                  <ul id={`${id}__error`} className="foyer-field-error">
                    {messages.map((message, index) => (
                      <li key={index}>{message}</li>
                    ))}
                  </ul>
                )}
                {field.help && (
                  <p id={`${id}__help`} className="foyer-help">
                    {translate(field.help)}
                  </p>
                )}
              </div>
            );
          })}
        </div>
      </div>
      {children}
    </form>
  );
}
