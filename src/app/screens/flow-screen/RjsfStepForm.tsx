// A step's form drawn by RJSF with Foyer's theme: the forms a plain form cannot express (custom
// fields, choices, checkboxes). Loaded only with such a form (./rjsf-step-form.ts). A form the server
// drew (src/ssr/render.tsx) may have been typed in before React took it over: what its fields hold
// then becomes the values, as if typed afterwards (as src/theme/PlainForm.tsx does).
import { useEffect, useEffectEvent, useMemo, useRef } from 'react';
import type Form from '@rjsf/core';
import { useTexts } from '../../../i18n/texts.ts';
import {
  enumOptionsValueForIndex,
  optionsList,
  type ErrorSchema,
  type RJSFSchema,
  type RJSFValidationError,
  type UiSchema,
  type ValidatorType,
} from '@rjsf/utils';
import createPrecompiledValidator from '@rjsf/validator-ajv8/lib/createPrecompiledValidator.js';
import type { FieldErrors, FieldMessage } from '../../../flow/errors.ts';
import { validationMessageKey, type LoadedForm } from '../../../flow/forms.ts';
import { evaluateMapping } from '../../../flow/logic.ts';
import { translateServerMessage } from '../../../i18n/index.ts';
import { FoyerForm } from '../../../theme/rjsf/index.ts';
import { SubmitButton } from './SubmitButton.tsx';
import type { StepFormProps } from './types.ts';

const validators = new WeakMap<LoadedForm, ValidatorType>();

/** RJSF's validator over the form's build-time compiled functions, one per form. */
export function rjsfValidatorOf(form: LoadedForm): ValidatorType {
  let validator = validators.get(form);
  if (!validator) {
    validator = createPrecompiledValidator(form.validateFns, form.schema);
    validators.set(form, validator);
  }
  return validator;
}

const NO_CONST_DEFAULTS = { constAsDefaults: 'never' } as const;

/** Server field errors as RJSF's error schema ("customParams.size" → {customParams: {size: {__errors}}}). */
export function errorSchemaOf(fieldErrors: FieldErrors, translate: (message: FieldMessage) => string): ErrorSchema | undefined {
  const entries = Object.entries(fieldErrors);
  if (entries.length === 0) return undefined;
  const schema: Record<string, unknown> = {};
  for (const [path, messages] of entries) {
    let node = schema;
    for (const part of path.split('.')) node = (node[part] ??= {}) as Record<string, unknown>;
    node.__errors = messages.map(translate);
  }
  return schema as ErrorSchema;
}

/** The field of the signup forms that holds the custom signup fields' values (schema/forms/signup.json). */
const CUSTOM_PARAMS_FIELD = 'customParams';

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

const isControl = (element: Element | null): element is Control =>
  element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement;

/** Whether `control` shows something else than `value`, which RJSF's theme drew it from. */
function differs(control: Control, value: unknown): boolean {
  if (control instanceof HTMLInputElement && control.type === 'checkbox') return control.checked !== (value === true);
  return control.value !== (value === undefined || value === null ? '' : String(value));
}

/** What a control holds as RJSF's theme sets it: a ticked box true, an empty field undefined. */
function controlValue(control: Control): string | true | undefined {
  if (control instanceof HTMLInputElement && control.type === 'checkbox') return control.checked || undefined;
  return control.value === '' ? undefined : control.value;
}

/** What a schema enum's select (src/theme/rjsf/templates.tsx SelectWidget: options carry enum indexes) stands for. */
function chosenOption(select: HTMLSelectElement, property: RJSFSchema, uiSchema: UiSchema | undefined): unknown {
  return enumOptionsValueForIndex(select.value, optionsList(property, uiSchema) ?? [], undefined);
}

/**
 * The top-level fields of `schema` whose controls (root_<name>) show something else than `values`
 * says, with what they hold; and the custom signup fields (`customParams`, src/theme/rjsf/fields.tsx:
 * one control per field, root_customParams_<index>, named by the field's label) as their list.
 */
export function typedBefore(
  form: HTMLFormElement,
  schema: RJSFSchema,
  uiSchema: UiSchema | undefined,
  values: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const typed: Record<string, unknown> = {};
  const controls = [...form.elements].filter(isControl);
  for (const [field, property] of Object.entries(schema.properties ?? {})) {
    const id = `root_${field}`;
    const control = controls.find((element) => element.id === id);
    if (control instanceof HTMLSelectElement && typeof property === 'object') {
      const chosen = chosenOption(control, property, uiSchema?.[field] as UiSchema | undefined);
      if (chosen !== (values[field] ?? undefined)) typed[field] = chosen;
      continue;
    }
    if (control) {
      if (differs(control, values[field])) typed[field] = controlValue(control);
      continue;
    }
    if (field !== CUSTOM_PARAMS_FIELD) continue;
    const entries = controls
      .filter((element) => element.id.startsWith(`${id}_`))
      .flatMap((element) => {
        const value = controlValue(element);
        return value === undefined ? [] : [{ label: element.name, value: value === true ? 'true' : value }];
      });
    const held = entries.length > 0 ? entries : undefined;
    if (JSON.stringify(held) !== JSON.stringify(values[field] ?? undefined)) typed[field] = held;
  }
  return Object.keys(typed).length > 0 ? typed : undefined;
}

export default function RjsfStepForm(props: StepFormProps) {
  const { t, texts } = useTexts();
  const { runner, state, form, step, context } = props;
  const transformErrors = (errors: RJSFValidationError[]) => errors.map((error) => ({ ...error, message: t(validationMessageKey(error)) }));
  // Server messages are translation keys, Foyer's English texts (the password policy's) or texts the server wrote.
  const extraErrors = useMemo(
    () => errorSchemaOf(state.fieldErrors, (message) => translateServerMessage(texts, message)),
    [state.fieldErrors, texts],
  );
  const stepProps = evaluateMapping(step.props, context);
  const propsKey = JSON.stringify(stepProps);
  const formContext = useMemo(() => ({ props: JSON.parse(propsKey) as Record<string, unknown> }), [propsKey]);
  const formRef = useRef<Form>(null);
  const adoptTyped = useEffectEvent(() => {
    const element = formRef.current?.formElement.current as HTMLFormElement | null | undefined;
    const typed = element && typedBefore(element, form.schema, form.uiSchema, state.form);
    if (typed) runner.setForm({ ...state.form, ...typed });
  });
  useEffect(() => adoptTyped(), []);
  return (
    <FoyerForm
      ref={formRef}
      className="foyer-stack"
      schema={form.schema}
      uiSchema={form.uiSchema}
      validator={rjsfValidatorOf(form)}
      formContext={formContext}
      extraErrors={extraErrors}
      // A `const` states what must be entered (a consent must be ticked), never a value to start from.
      experimental_defaultFormStateBehavior={NO_CONST_DEFAULTS}
      formData={state.form}
      noHtml5Validate
      showErrorList={false}
      transformErrors={transformErrors}
      onChange={(event) => runner.setForm((event.formData ?? {}) as Record<string, unknown>)}
      onSubmit={(event) => void runner.submit((event.formData ?? {}) as Record<string, unknown>)}
    >
      {props.aboveSubmit}
      <SubmitButton {...props} />
    </FoyerForm>
  );
}
