// The step's body: its form (a JSON-Schema form of schema/forms/) or registered component, with the
// slots placed above the main button and the button itself.
import { Suspense, use, useEffect, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorSchema, RJSFValidationError } from '@rjsf/utils';
import { componentRegistry } from '../../../components/registry.ts';
import { submitDisabled } from '../../../flow/engine.ts';
import type { FieldErrors, FieldMessage } from '../../../flow/errors.ts';
import { loadForm, validationMessageKey } from '../../../flow/forms.ts';
import { evaluateMapping } from '../../../flow/logic.ts';
import { isComponentName } from '../../../flow/registry-names.ts';
import { translateServerMessage } from '../../../i18n/index.ts';
import { Button } from '../../../theme/Button.tsx';
import { FoyerForm } from '../../../theme/rjsf/index.ts';
import type { StepViewProps } from './types.ts';

function SubmitButton({ step, state, context, translate }: Omit<StepViewProps, 'runner'>) {
  if (!step.submit || step.submit.hidden) return null;
  const busy = state.status === 'submitting' || state.status === 'leaving';
  return (
    <Button
      type="submit"
      size={step.submit.size ?? 'lg'}
      loading={busy}
      disabled={!busy && (state.status !== 'idle' || submitDisabled(step, context))}
    >
      {translate(step.submit.label ?? 'actions.continue')}
    </Button>
  );
}

/** Runs `onMounted` after the (possibly lazy) content above it has mounted. */
function Mounted({ onMounted }: { onMounted: () => void }) {
  useEffect(onMounted, [onMounted]);
  return null;
}

export function StepBody(props: StepViewProps & { aboveSubmit: ReactNode; onMounted: () => void }) {
  const { t } = useTranslation();
  const { step, runner, state, context, onMounted } = props;
  const fallback = <p role="status">{t('app.loading')}</p>;
  if (step.form) {
    return (
      <Suspense fallback={fallback}>
        <StepForm {...props} formName={step.form} />
        <Mounted onMounted={onMounted} />
      </Suspense>
    );
  }
  const Component = step.component && isComponentName(step.component) ? componentRegistry[step.component] : undefined;
  if (!Component && !step.submit) return state.status === 'loading' || state.status === 'starting' ? fallback : null;
  return (
    <form
      className="foyer-stack"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void runner.submit();
      }}
    >
      {Component &&
        (state.status === 'loading' || state.status === 'starting' ? (
          fallback
        ) : (
          <Suspense fallback={fallback}>
            <Component
              props={evaluateMapping(step.props, context)}
              form={state.form}
              status={state.status}
              setForm={(values) => runner.setForm(values)}
              submit={(values) => void runner.submit(values)}
              follow={(target) => void runner.follow(target)}
            />
            <Mounted onMounted={onMounted} />
          </Suspense>
        ))}
      {props.aboveSubmit}
      <SubmitButton {...props} />
    </form>
  );
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

function StepForm(props: StepViewProps & { formName: string; aboveSubmit: ReactNode }) {
  const { t, i18n } = useTranslation();
  const { runner, state, formName, step, context } = props;
  const form = use(loadForm(formName));
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
      validator={form.validator}
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
