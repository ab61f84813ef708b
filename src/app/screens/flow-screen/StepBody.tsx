// The step's body: its form (a JSON-Schema form of schema/forms/) or registered component, with the
// slots placed above the main button and the button itself. Plain forms (src/flow/plain-form.ts) are
// drawn by the theme's PlainForm; RJSF loads only with a form that needs it (./RjsfStepForm.tsx).
import { Suspense, use, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTexts } from '../../../i18n/texts.ts';
import { componentRegistry } from '../../../components/registry.ts';
import { loadForm, plainFormIssues } from '../../../flow/forms.ts';
import type { PlainField } from '../../../flow/plain-form.ts';
import { evaluateMapping } from '../../../flow/logic.ts';
import { isComponentName } from '../../../flow/registry-names.ts';
import { translateServerMessage } from '../../../i18n/index.ts';
import { PlainForm } from '../../../theme/PlainForm.tsx';
import { RjsfStepForm } from './rjsf-step-form.ts';
import { SubmitButton } from './SubmitButton.tsx';
import type { StepFormProps, StepViewProps } from './types.ts';

/** Runs `onMounted` after the (possibly lazy) content above it has mounted. */
function Mounted({ onMounted }: { onMounted: () => void }) {
  useEffect(onMounted, [onMounted]);
  return null;
}

export function StepBody(props: StepViewProps & { aboveSubmit: ReactNode; onMounted: () => void }) {
  const { t } = useTexts();
  const { step, runner, state, context, onMounted } = props;
  const fallback = <p role="status">{t('app.loading')}</p>;
  if (step.form) {
    return (
      <Suspense fallback={fallback}>
        <StepForm {...props} key={step.form} formName={step.form} />
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

function StepForm({ formName, ...props }: StepViewProps & { formName: string; aboveSubmit: ReactNode }) {
  const form = use(loadForm(formName));
  if (form.plainFields) return <PlainStepForm {...props} form={form} fields={form.plainFields} />;
  return <RjsfStepForm {...props} form={form} />;
}

/**
 * Like RJSF without live validation: the compiled validator runs on submit, its messages stay until
 * the next submit, and the server's field messages show beside them.
 */
function PlainStepForm(props: StepFormProps & { fields: PlainField[] }) {
  const { t, texts } = useTexts();
  const { runner, state, form, fields } = props;
  const [checked, setChecked] = useState<Record<string, string[]>>({});
  const errors = useMemo(() => {
    const shown: Record<string, string[]> = {};
    for (const [field, keys] of Object.entries(checked)) shown[field] = keys.map((key) => t(key));
    // Server messages are translation keys, Foyer's English texts (the password policy's) or texts the server wrote.
    for (const [field, messages] of Object.entries(state.fieldErrors))
      (shown[field] ??= []).push(...messages.map((message) => translateServerMessage(texts, message)));
    return shown;
  }, [checked, state.fieldErrors, t, texts]);
  return (
    <PlainForm
      className="foyer-stack"
      fields={fields}
      values={state.form}
      errors={errors}
      translate={t}
      onChange={(values) => runner.setForm(values)}
      onSubmit={() => {
        const issues = plainFormIssues(form, state.form);
        setChecked(issues);
        if (Object.keys(issues).length === 0) void runner.submit(state.form);
      }}
    >
      {props.aboveSubmit}
      <SubmitButton {...props} />
    </PlainForm>
  );
}
