// The theme's renderer of plain forms (src/flow/plain-form.ts): the same markup, ids and
// aria-describedby links as Foyer's RJSF theme (./rjsf/templates.tsx), so both kinds of form look and
// read alike. Texts arrive translated; values and errors are the caller's. A form the server drew
// (src/ssr/render.tsx) may have been typed in before React took it over: what is in its fields then
// becomes the values, through onChange, as if typed afterwards.
import { useEffect, useEffectEvent, useRef, type FormEvent, type ReactNode } from 'react';
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

/** The fields whose input holds something else than `values` says (typed before hydration), with what it holds. */
function typedBefore(form: HTMLFormElement, fields: PlainField[], values: Record<string, unknown>): Record<string, unknown> | undefined {
  const typed: Record<string, unknown> = {};
  for (const field of fields) {
    const input = form.elements.namedItem(fieldId(field.name));
    const value = values[field.name];
    if (input instanceof HTMLInputElement && input.value !== (typeof value === 'string' ? value : ''))
      typed[field.name] = input.value || undefined;
  }
  return Object.keys(typed).length > 0 ? typed : undefined;
}

export function PlainForm({ fields, values, errors, translate, onChange, onSubmit, className, children }: PlainFormProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const adoptTyped = useEffectEvent(() => {
    const typed = formRef.current && typedBefore(formRef.current, fields, values);
    if (typed) onChange({ ...values, ...typed });
  });
  useEffect(() => adoptTyped(), []);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form ref={formRef} className={className} noValidate onSubmit={submit}>
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
