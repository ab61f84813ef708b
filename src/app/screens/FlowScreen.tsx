// Renders one flow: the current step's heading, alert, form or component, main button and slots.
// All decisions come from the flow file through FlowRunner; this file only draws.
import { translateServerMessage } from '../../i18n/index.ts';
import { Suspense, use, useCallback, useEffect, useMemo, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import type { ErrorSchema, RJSFValidationError } from '@rjsf/utils';
import { componentRegistry } from '../../components/registry.ts';
import { createActionRunner } from '../../flow/actions.ts';
import { stepOf, submitDisabled, type FlowRunner, type FlowState, type UnmappedError } from '../../flow/engine.ts';
import type { FieldErrors } from '../../flow/errors.ts';
import type { FieldMessage } from '../../flow/errors.ts';
import { loadForm, validationMessageKey } from '../../flow/forms.ts';
import { evaluate, evaluateMapping, holds, resolveText } from '../../flow/logic.ts';
import { isComponentName } from '../../flow/registry-names.ts';
import type { Flow, FlowContext, FlowEnvironment, Slot, Step, TextRef } from '../../flow/types.ts';
import { useFlow } from '../../flow/useFlow.ts';
import { previewNavigationOf } from '../../preview/screens.ts';
import { Alert } from '../../theme/Alert.tsx';
import { Button } from '../../theme/Button.tsx';
import { Divider } from '../../theme/Divider.tsx';
import { FoyerForm } from '../../theme/rjsf/index.ts';
import { AuthLayout, type AuthLayoutProps } from '../layouts/AuthLayout.tsx';
import { useAuthChanges, useAppConfig, useRuntime } from '../../runtime/context.tsx';
import { createRedirect } from '../../runtime/redirect.ts';
import { usePageTitle } from '../page-title.ts';
import { useOpenedStep, useStepInAddress } from '../step-address.ts';

const FOCUSABLE_FIELD =
  'input:not([type="hidden"]):not([readonly]):not([disabled]), select:not([disabled]), textarea:not([readonly]):not([disabled])';

type Translate = (text: TextRef) => string;

function useFlowEnvironment(): () => FlowEnvironment {
  const { config } = useRuntime();
  const app = useAppConfig();
  const auth = useAuthChanges();
  const location = useLocation();
  const params = useParams();
  const query = useMemo(() => Object.fromEntries(new URLSearchParams(location.search)), [location.search]);
  const navigationState = location.state as unknown;
  return () => {
    const authenticated = auth.isAuthenticated();
    const user = authenticated ? auth.currentUser() : undefined;
    return {
      app: { ...(app ?? {}) },
      config: { ...config },
      query,
      user: { ...(user ?? {}), authenticated, tenantUserId: auth.currentTenantUserId() },
      tenant: { ...(user?.tenant ?? {}) },
      params: Object.fromEntries(Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined)),
      state: typeof navigationState === 'object' && navigationState !== null ? { ...(navigationState as Record<string, unknown>) } : {},
      path: `${location.pathname}${location.search}`,
    };
  };
}

function logUnmappedError({ flow, step, codes, fields, error }: UnmappedError): void {
  const unplaced = fields.length ? `; field errors shown nowhere: ${fields.join(', ')}` : '';
  console.warn(`Flow ${flow}, step ${step}: no onError entry for ${codes.join(', ') || 'this error'}${unplaced}`, error);
}

export interface FlowScreenProps {
  flow: Flow;
  /** What frames the step: the /auth card by default, the signed-in page for management screens. */
  layout?: ComponentType<AuthLayoutProps>;
}

/**
 * In preview mode a screen switch (src/preview/screens.ts) opens the flow afresh, at the step it names
 * when the flow has it; elsewhere navigation state never picks a step.
 */
export function FlowScreen({ flow, layout }: FlowScreenProps) {
  const { config } = useRuntime();
  const location = useLocation();
  const switched = config.preview ? previewNavigationOf(location.state) : undefined;
  const step = switched?.step;
  const opened = useMemo(() => (step && Object.hasOwn(flow.steps, step) ? { ...flow, initial: step } : flow), [flow, step]);
  return <FlowView key={switched ? location.key : undefined} flow={opened} layout={layout} />;
}

function FlowView({ flow, layout: Layout = AuthLayout }: FlowScreenProps) {
  const { t } = useTranslation();
  usePageTitle(t(flow.title));
  const { auth, api, config } = useRuntime();
  const navigate = useNavigate();
  const environment = useFlowEnvironment();
  const runAction = useMemo(() => createActionRunner({ auth, api, config, assign: createRedirect(config).assign }), [auth, api, config]);
  const openedStep = useOpenedStep();
  const { runner, state } = useFlow({
    flow,
    environment,
    runAction,
    navigate: (path, options) => void navigate(path, options),
    // In development a server code the flow has no words for is logged, never swallowed by the generic text.
    reportUnmapped: config.env === 'development' ? logUnmappedError : undefined,
    // The preview opens screens by message, never by address.
    resume: config.preview ? undefined : openedStep,
  });
  useStepInAddress(runner, state, openedStep, !config.preview);
  const context = runner.context();
  const step = stepOf(flow, state.step);
  const translate: Translate = (text) => {
    const { key, values } = resolveText(text, context);
    return t(key, values);
  };

  const cardRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Keyboard focus goes to the step's first editable field when a step opens or a failure cleared it;
  // lazy forms call this again once mounted. Never in the configurator's preview: there it would pull
  // the owner's focus out of the editor at every load and screen switch.
  const autoFocus = !config.preview;
  const focusPending = useRef(autoFocus);
  const focusFirstField = useCallback(() => {
    if (!focusPending.current) return;
    const field = cardRef.current?.querySelector<HTMLElement>(FOCUSABLE_FIELD);
    if (field) {
      field.focus();
      focusPending.current = false;
    }
  }, []);
  useEffect(() => {
    focusPending.current = autoFocus;
    focusFirstField();
  }, [state.focusKey, focusFirstField, autoFocus]);
  useEffect(() => {
    // A step without fields: the heading takes focus so the new content is read from the top.
    if (focusPending.current && state.status === 'idle' && !step.form && !step.component) {
      headingRef.current?.focus();
      focusPending.current = false;
    }
  }, [state.status, state.focusKey, step]);

  const slots = (step.slots ?? []).filter((slot) => holds(slot.if, context));
  const before = slots.filter((slot) => slot.placement === 'before');
  const after = slots.filter((slot) => slot.placement === undefined || slot.placement === 'after');
  const aboveSubmit = slots
    .filter((slot) => slot.placement === 'above-submit')
    .map((slot, index) => (
      <SlotView key={`above-submit-${index}`} slot={slot} runner={runner} state={state} context={context} translate={translate} />
    ));

  return (
    <Layout
      heading={step.heading ? translate(step.heading) : t(flow.title)}
      subheading={step.subheading ? translate(step.subheading) : undefined}
      headingRef={headingRef}
    >
      <div ref={cardRef} className="foyer-stack">
        {state.alert && (
          <Alert variant={state.alert.variant} title={t(state.alert.title)}>
            {t(state.alert.message)}
          </Alert>
        )}
        {before.map((slot, index) => (
          <SlotView key={`before-${index}`} slot={slot} runner={runner} state={state} context={context} translate={translate} />
        ))}
        <StepBody
          key={state.step}
          step={step}
          runner={runner}
          state={state}
          context={context}
          translate={translate}
          aboveSubmit={aboveSubmit}
          onMounted={focusFirstField}
        />
        {after.map((slot, index) => (
          <SlotView key={`after-${index}`} slot={slot} runner={runner} state={state} context={context} translate={translate} />
        ))}
      </div>
    </Layout>
  );
}

interface StepViewProps {
  step: Step;
  runner: FlowRunner;
  state: FlowState;
  context: FlowContext;
  translate: Translate;
}

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

function StepBody(props: StepViewProps & { aboveSubmit: ReactNode; onMounted: () => void }) {
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

type SlotViewProps = Omit<StepViewProps, 'step'> & { slot: Slot };

function SlotButton({
  slot,
  runner,
  state,
  translate,
}: Omit<SlotViewProps, 'slot' | 'context'> & { slot: Extract<Slot, { type: 'button' }> }) {
  const busy = state.status === 'submitting' || state.status === 'leaving';
  // The clicked button shows the loading state while its move runs (e.g. the login redirect).
  const [clicked, setClicked] = useState(false);
  useEffect(() => {
    if (state.status === 'idle') setClicked(false);
  }, [state.status]);
  const loading = clicked && busy;
  return (
    <Button
      variant={slot.variant ?? 'secondary'}
      size={slot.size ?? 'md'}
      loading={loading}
      disabled={busy && !loading}
      onClick={() => {
        setClicked(true);
        void runner.follow(slot.goto, slot.reset);
      }}
    >
      {translate(slot.label)}
    </Button>
  );
}

function SlotView({ slot, runner, state, context, translate }: SlotViewProps) {
  switch (slot.type) {
    case 'button':
      return <SlotButton slot={slot} runner={runner} state={state} translate={translate} />;
    case 'link': {
      const label = translate(slot.label);
      const href = slot.href === undefined ? undefined : evaluate(slot.href, context);
      const link: ReactNode = slot.to ? (
        <Link to={slot.to}>{label}</Link>
      ) : (
        <a href={typeof href === 'string' ? href : undefined}>{label}</a>
      );
      return (
        <p className="foyer-center">
          {slot.prefix && <>{translate(slot.prefix)} </>}
          {link}
        </p>
      );
    }
    case 'divider':
      return <Divider>{slot.label ? translate(slot.label) : undefined}</Divider>;
    case 'alert':
      return (
        <Alert variant={slot.variant ?? 'danger'} title={slot.title ? translate(slot.title) : undefined}>
          {translate(slot.message)}
        </Alert>
      );
    case 'component': {
      const Component = isComponentName(slot.component) ? componentRegistry[slot.component] : undefined;
      if (!Component) return null;
      return (
        <Suspense fallback={null}>
          <Component
            props={evaluateMapping(slot.props, context)}
            form={state.form}
            status={state.status}
            setForm={(values) => runner.setForm(values)}
            submit={(values) => void runner.submit(values)}
            follow={(target) => void runner.follow(target)}
          />
        </Suspense>
      );
    }
  }
}
