// Foyer's RJSF templates and widgets: plain semantic markup, translated labels (schema titles are
// translation keys), and errors/help tied to their input through aria-describedby.
import type { ChangeEvent, FocusEvent } from 'react';
import { useTexts } from '../../i18n/texts.ts';
import {
  descriptionId,
  enumOptionsIndexForValue,
  enumOptionsValueForIndex,
  errorId,
  helpId,
  type BaseInputTemplateProps,
  type DescriptionFieldProps,
  type FieldErrorProps,
  type FieldHelpProps,
  type FieldTemplateProps,
  type ObjectFieldTemplateProps,
  type TitleFieldProps,
  type WidgetProps,
  getInputProps,
} from '@rjsf/utils';

/** Ids of the elements that describe an input, only those that exist. */
function describedBy(
  id: string,
  props: { rawErrors?: string[]; options: Record<string, unknown>; uiSchema?: Record<string, unknown> },
): string | undefined {
  const ids: string[] = [];
  if (props.rawErrors?.length) ids.push(errorId(id));
  if (props.uiSchema?.['ui:help']) ids.push(helpId(id));
  if (props.uiSchema?.['ui:description']) ids.push(descriptionId(id));
  return ids.length ? ids.join(' ') : undefined;
}

export function FieldTemplate(props: FieldTemplateProps) {
  const { t } = useTexts();
  const { id, label, children, errors, help, description, hidden, displayLabel, schema, uiSchema } = props;
  if (hidden) return <div hidden>{children}</div>;
  const isCheckbox = schema.type === 'boolean' || uiSchema?.['ui:widget'] === 'checkbox';
  const isObject = schema.type === 'object';
  return (
    <div className={isObject ? undefined : 'foyer-field'}>
      {displayLabel && !isCheckbox && !isObject && (
        <label className="foyer-label" htmlFor={id}>
          {t(label)}
        </label>
      )}
      {displayLabel && description}
      {children}
      {errors}
      {help}
    </div>
  );
}

export function BaseInputTemplate(props: BaseInputTemplateProps) {
  const { t } = useTexts();
  const {
    id,
    htmlName,
    value,
    readonly,
    disabled,
    autofocus,
    onBlur,
    onFocus,
    onChange,
    onChangeOverride,
    options,
    schema,
    type,
    placeholder,
    required,
    rawErrors,
    uiSchema,
  } = props;
  const inputProps = getInputProps(schema, type, options);
  return (
    <input
      {...inputProps}
      id={id}
      name={htmlName || id}
      className="foyer-input"
      value={value ?? ''}
      placeholder={placeholder ? t(placeholder) : undefined}
      readOnly={readonly}
      disabled={disabled}
      autoFocus={autofocus}
      required={required}
      aria-required={required || undefined}
      aria-invalid={rawErrors?.length ? true : undefined}
      aria-describedby={describedBy(id, { rawErrors, options, uiSchema })}
      onChange={
        onChangeOverride ||
        ((event: ChangeEvent<HTMLInputElement>) => onChange(event.target.value === '' ? options.emptyValue : event.target.value))
      }
      onBlur={(event: FocusEvent<HTMLInputElement>) => onBlur(id, event.target.value)}
      onFocus={(event: FocusEvent<HTMLInputElement>) => onFocus(id, event.target.value)}
    />
  );
}

export function CheckboxWidget(props: WidgetProps) {
  const { t } = useTexts();
  const { id, htmlName, value, disabled, readonly, autofocus, label, required, onChange, onBlur, onFocus, rawErrors, options, uiSchema } =
    props;
  return (
    <div className="foyer-checkbox">
      <input
        type="checkbox"
        id={id}
        name={htmlName || id}
        checked={value === true}
        disabled={disabled || readonly}
        autoFocus={autofocus}
        aria-required={required || undefined}
        aria-invalid={rawErrors?.length ? true : undefined}
        aria-describedby={describedBy(id, { rawErrors, options, uiSchema })}
        onChange={(event) => onChange(event.target.checked)}
        onBlur={(event) => onBlur(id, event.target.checked)}
        onFocus={(event) => onFocus(id, event.target.checked)}
      />
      <label htmlFor={id}>{t(label)}</label>
    </div>
  );
}

export function SelectWidget(props: WidgetProps) {
  const { t, texts } = useTexts();
  const {
    id,
    htmlName,
    value,
    disabled,
    readonly,
    autofocus,
    required,
    placeholder,
    onChange,
    onBlur,
    onFocus,
    rawErrors,
    options,
    uiSchema,
  } = props;
  // An option's title is a translation key, or a name that reads the same in every language (a language's own name).
  const labelOf = (label: string) => (texts.exists(label) ? t(label) : label);
  const enumOptions = options.enumOptions ?? [];
  const selected = enumOptionsIndexForValue(value, enumOptions, false);
  const emptyValue = options.emptyValue;
  return (
    <select
      id={id}
      name={htmlName || id}
      className="foyer-select"
      value={typeof selected === 'undefined' ? '' : String(selected)}
      disabled={disabled || readonly}
      autoFocus={autofocus}
      aria-required={required || undefined}
      aria-invalid={rawErrors?.length ? true : undefined}
      aria-describedby={describedBy(id, { rawErrors, options, uiSchema })}
      onChange={(event) => onChange(enumOptionsValueForIndex(event.target.value, enumOptions, emptyValue))}
      onBlur={(event) => onBlur(id, enumOptionsValueForIndex(event.target.value, enumOptions, emptyValue))}
      onFocus={(event) => onFocus(id, enumOptionsValueForIndex(event.target.value, enumOptions, emptyValue))}
    >
      <option value="">{placeholder ? t(placeholder) : ''}</option>
      {enumOptions.map((option, index) => (
        <option key={index} value={String(index)}>
          {labelOf(option.label)}
        </option>
      ))}
    </select>
  );
}

export function FieldErrorTemplate({ errors, fieldPathId }: FieldErrorProps) {
  const messages = (errors ?? []).filter(Boolean);
  if (messages.length === 0) return null;
  return (
    <ul id={errorId(fieldPathId)} className="foyer-field-error">
      {messages.map((message, index) => (
        <li key={index}>{message}</li>
      ))}
    </ul>
  );
}

export function FieldHelpTemplate({ help, fieldPathId }: FieldHelpProps) {
  const { t } = useTexts();
  if (!help) return null;
  return (
    <p id={helpId(fieldPathId)} className="foyer-help">
      {typeof help === 'string' ? t(help) : help}
    </p>
  );
}

export function DescriptionFieldTemplate({ id, description }: DescriptionFieldProps) {
  const { t } = useTexts();
  if (!description) return null;
  return (
    <p id={id} className="foyer-help">
      {typeof description === 'string' ? t(description) : description}
    </p>
  );
}

export function TitleFieldTemplate({ id, title }: TitleFieldProps) {
  const { t } = useTexts();
  return (
    <p id={id} className="foyer-label">
      {t(title)}
    </p>
  );
}

export function ObjectFieldTemplate({ properties, title, description, fieldPathId }: ObjectFieldTemplateProps) {
  const { t } = useTexts();
  return (
    <div className="foyer-stack">
      {title && <p className="foyer-label">{t(title)}</p>}
      {typeof description === 'string' ? (
        <p id={descriptionId(fieldPathId)} className="foyer-help">
          {t(description)}
        </p>
      ) : (
        description
      )}
      {properties.map((property) => property.content)}
    </div>
  );
}

/** Field errors are shown at their fields; no summary list. */
export function ErrorListTemplate() {
  return null;
}
