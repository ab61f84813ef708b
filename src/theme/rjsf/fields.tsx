// Foyer's own RJSF field and widget, named from form files (ui:field "CustomParams", ui:widget
// "consent"). They read what they show from the step's props (formContext.props), never from code in
// the form file, so the form stays plain data with a build-time compiled validator.
import { translateServerMessage } from '../../i18n/index.ts';
import type { ReactNode } from 'react';
import { TaggedText } from '../../i18n/tagged-text.tsx';
import { useTexts } from '../../i18n/texts.ts';
import { errorId, type FieldProps, type WidgetProps } from '@rjsf/utils';
import type { FormFieldName, FormWidgetName } from '../../flow/registry-names.ts';
import { customSignupOptionKey } from '../../../common/app-config.ts';

/** One custom signup parameter as getTenantUserCustomParamsConfigAnonymous describes it. */
export interface CustomParamConfig {
  label: string;
  type: string;
  userLabel: string;
  regex?: string | null;
  /** A required checkbox must be ticked; any other required field must have a value (the server checks). */
  required?: boolean | null;
  /** The choices of a select field. */
  options?: { value: string; label: string }[] | null;
}

export interface CustomParamValue {
  label: string;
  value: string;
}

export function formProps(registry: { formContext?: unknown }): Record<string, unknown> {
  const context = registry.formContext as { props?: Record<string, unknown> } | undefined;
  return context?.props ?? {};
}

function paramConfigs(value: unknown): CustomParamConfig[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (item): item is CustomParamConfig =>
      typeof item === 'object' && item !== null && typeof item.label === 'string' && typeof item.type === 'string',
  );
}

/** docs/SPEC.md section 3: email → e-mail input, phone → tel, number or integer → number, text or regex → text; select → a list of choices. */
export function inputTypeOf(type: string): 'email' | 'tel' | 'number' | 'checkbox' | 'select' | 'text' {
  switch (type) {
    case 'select':
      return 'select';
    case 'email':
      return 'email';
    case 'phone':
      return 'tel';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'checkbox';
    default:
      return 'text';
  }
}

const AUTOCOMPLETE: Partial<Record<string, string>> = { email: 'email', tel: 'tel' };

/**
 * The app's custom signup fields (props.customParams), each rendered by its type with its userLabel.
 * The value is the list createTenantAnonymous takes: [{label, value}], booleans as "true"/"false".
 * Server field errors arrive in the error schema by label.
 */
export function CustomParamsField({ formData, onChange, fieldPathId, registry, errorSchema, disabled, readonly }: FieldProps) {
  const { texts } = useTexts();
  const params = paramConfigs(formProps(registry).customParams);
  if (params.length === 0) return null;
  const values: CustomParamValue[] = Array.isArray(formData) ? (formData as CustomParamValue[]) : [];
  const valueOf = (label: string) => values.find((entry) => entry.label === label)?.value ?? '';
  const change = (label: string, value: string) => {
    const next = params
      .map((param) => ({ label: param.label, value: param.label === label ? value : valueOf(param.label) }))
      .filter((entry) => entry.value !== '');
    onChange(next.length ? next : undefined, fieldPathId.path);
  };
  const errorsOf = (label: string): string[] => {
    const node = (errorSchema as Record<string, { __errors?: string[] }> | undefined)?.[label];
    return node?.__errors ?? [];
  };
  const translated = (message: string) => translateServerMessage(texts, message);

  return (
    <div className="foyer-stack">
      {params.map((param, index) => {
        const id = `${fieldPathId.$id}_${index}`;
        const type = inputTypeOf(param.type);
        const errors = errorsOf(param.label);
        const describedBy = errors.length ? errorId(id) : undefined;
        const errorList: ReactNode = errors.length ? (
          <ul id={errorId(id)} className="foyer-field-error">
            {errors.map((message, position) => (
              <li key={position}>{translated(message)}</li>
            ))}
          </ul>
        ) : null;
        if (type === 'select') {
          return (
            <div key={param.label} className="foyer-field">
              <label className="foyer-label" htmlFor={id}>
                {param.userLabel || param.label}
              </label>
              <select
                id={id}
                name={param.label}
                className="foyer-select"
                value={valueOf(param.label)}
                required={param.required === true}
                aria-required={param.required === true || undefined}
                disabled={disabled || readonly}
                aria-invalid={errors.length ? true : undefined}
                aria-describedby={describedBy}
                onChange={(event) => change(param.label, event.target.value)}
              >
                <option value="" />
                {(param.options ?? []).map((option) => (
                  <option key={option.value} value={option.value}>
                    {texts.t(customSignupOptionKey(param.label, option.value), { defaultValue: option.label })}
                  </option>
                ))}
              </select>
              {errorList}
            </div>
          );
        }
        if (type === 'checkbox') {
          return (
            <div key={param.label} className="foyer-field">
              <div className="foyer-checkbox">
                <input
                  type="checkbox"
                  id={id}
                  name={param.label}
                  checked={valueOf(param.label) === 'true'}
                  required={param.required === true}
                  aria-required={param.required === true || undefined}
                  disabled={disabled || readonly}
                  aria-invalid={errors.length ? true : undefined}
                  aria-describedby={describedBy}
                  onChange={(event) => change(param.label, event.target.checked ? 'true' : 'false')}
                />
                <label htmlFor={id}>{param.userLabel || param.label}</label>
              </div>
              {errorList}
            </div>
          );
        }
        return (
          <div key={param.label} className="foyer-field">
            <label className="foyer-label" htmlFor={id}>
              {param.userLabel || param.label}
            </label>
            <input
              type={type}
              id={id}
              name={param.label}
              className="foyer-input"
              value={valueOf(param.label)}
              step={param.type === 'integer' ? 1 : type === 'number' ? 'any' : undefined}
              inputMode={param.type === 'integer' ? 'numeric' : param.type === 'number' ? 'decimal' : undefined}
              autoComplete={AUTOCOMPLETE[type]}
              required={param.required === true}
              aria-required={param.required === true || undefined}
              readOnly={readonly}
              disabled={disabled}
              aria-invalid={errors.length ? true : undefined}
              aria-describedby={describedBy}
              onChange={(event) => change(param.label, event.target.value)}
            />
            {errorList}
          </div>
        );
      })}
    </div>
  );
}

function ExternalLink({ href, children }: { href?: unknown; children?: ReactNode }) {
  if (typeof href !== 'string' || !href) return <>{children}</>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

/**
 * The consent checkbox: its label (a translation key) may hold <privacy>…</privacy> and <terms>…</terms>,
 * which link to props.privacyPolicyUrl and props.termsOfServiceUrl.
 */
export function ConsentWidget(props: WidgetProps) {
  const { t } = useTexts();
  const { id, htmlName, value, disabled, readonly, autofocus, label, required, onChange, onBlur, onFocus, rawErrors, registry } = props;
  const links = formProps(registry);
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
        aria-describedby={rawErrors?.length ? errorId(id) : undefined}
        onChange={(event) => onChange(event.target.checked)}
        onBlur={(event) => onBlur(id, event.target.checked)}
        onFocus={(event) => onFocus(id, event.target.checked)}
      />
      <label htmlFor={id}>
        <TaggedText
          text={t(label)}
          parts={{
            privacy: (words) => <ExternalLink href={links.privacyPolicyUrl}>{words}</ExternalLink>,
            terms: (words) => <ExternalLink href={links.termsOfServiceUrl}>{words}</ExternalLink>,
          }}
        />
      </label>
    </div>
  );
}

export const foyerFields: Record<FormFieldName, typeof CustomParamsField> = {
  CustomParams: CustomParamsField,
};

export const foyerWidgets: Record<FormWidgetName, typeof ConsentWidget> = {
  consent: ConsentWidget,
};
