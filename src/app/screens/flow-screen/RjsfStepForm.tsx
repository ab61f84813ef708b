// A step's form drawn by RJSF with Foyer's theme: the forms a plain form cannot express (custom
// fields, choices, checkboxes). Loaded only with such a form (./StepBody.tsx).
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorSchema, RJSFValidationError, ValidatorType } from '@rjsf/utils';
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

export default function RjsfStepForm(props: StepFormProps) {
  const { t, i18n } = useTranslation();
  const { runner, state, form, step, context } = props;
  const transformErrors = (errors: RJSFValidationError[]) => errors.map((error) => ({ ...error, message: t(validationMessageKey(error)) }));
  // Server messages are translation keys, Foyer's English texts (the password policy's) or texts the server wrote.
  const extraErrors = useMemo(
    () => errorSchemaOf(state.fieldErrors, (message) => translateServerMessage(i18n, message)),
    [state.fieldErrors, i18n],
  );
  const stepProps = evaluateMapping(step.props, context);
  const propsKey = JSON.stringify(stepProps);
  const formContext = useMemo(() => ({ props: JSON.parse(propsKey) as Record<string, unknown> }), [propsKey]);
  return (
    <FoyerForm
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
