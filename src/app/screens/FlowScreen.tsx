// Renders one flow: the current step's heading, alert, body (./flow-screen/StepBody.tsx) and slots
// (./flow-screen/SlotView.tsx), and keeps keyboard focus where a step opens. All decisions come from
// the flow file through FlowRunner; these files only draw.
import { useCallback, useEffect, useMemo, useRef, type ComponentType } from 'react';
import { useTexts } from '../../i18n/texts.ts';
import { createActionRunner } from '../../flow/actions.ts';
import { stepOf, type UnmappedError } from '../../flow/engine.ts';
import { holds, resolveText } from '../../flow/logic.ts';
import type { Flow } from '../../flow/types.ts';
import { useFlow } from '../../flow/useFlow.ts';
import { previewNavigationOf } from '../../preview/screens.ts';
import { Alert } from '../../theme/Alert.tsx';
import { AuthLayout, type AuthLayoutProps } from '../layouts/AuthLayout.tsx';
import { useRuntime } from '../../runtime/context.tsx';
import { createRedirect } from '../../runtime/redirect.ts';
import { useAppLocation, useAppNavigate } from '../navigation.tsx';
import { usePageTitle } from '../page-title.ts';
import { useOpenedStep, useStepInAddress } from '../step-address.ts';
import { useFlowEnvironment } from './flow-screen/environment.ts';
import { SlotView } from './flow-screen/SlotView.tsx';
import { StepBody } from './flow-screen/StepBody.tsx';
import type { Translate } from './flow-screen/types.ts';

const FOCUSABLE_FIELD =
  'input:not([type="hidden"]):not([readonly]):not([disabled]), select:not([disabled]), textarea:not([readonly]):not([disabled])';

function logUnmappedError({ flow, step, codes, fields, error }: UnmappedError): void {
  const unplaced = fields.length ? `; field errors shown nowhere: ${fields.join(', ')}` : '';
  console.warn(`Flow ${flow}, step ${step}: no onError entry for ${codes.join(', ') || 'this error'}${unplaced}`, error);
}

export interface FlowScreenProps {
  flow: Flow;
  /** What frames the step: the /auth card by default, the signed-in page for management screens. */
  layout?: ComponentType<AuthLayoutProps>;
  /** The server drew the step the page opened with (src/app/first-step.tsx). */
  drawn?: boolean;
}

/**
 * In preview mode a screen switch (src/preview/screens.ts) opens the flow afresh, at the step it names
 * when the flow has it; elsewhere navigation state never picks a step.
 */
export function FlowScreen({ flow, layout, drawn }: FlowScreenProps) {
  const { config } = useRuntime();
  const location = useAppLocation();
  const switched = config.preview ? previewNavigationOf(location.state) : undefined;
  const step = switched?.step;
  const opened = useMemo(() => (step && Object.hasOwn(flow.steps, step) ? { ...flow, initial: step } : flow), [flow, step]);
  return <FlowView key={switched ? location.key : undefined} flow={opened} layout={layout} drawn={drawn} />;
}

function FlowView({ flow, layout: Layout = AuthLayout, drawn = false }: FlowScreenProps) {
  const { t } = useTexts();
  usePageTitle(t(flow.title));
  const { auth, api, config } = useRuntime();
  const navigate = useAppNavigate();
  const environment = useFlowEnvironment();
  const runAction = useMemo(() => createActionRunner({ auth, api, config, assign: createRedirect(config).assign }), [auth, api, config]);
  const openedStep = useOpenedStep();
  const { runner, state } = useFlow({
    flow,
    environment,
    runAction,
    navigate,
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
  // The drawn step opens with the flow's start and its entry into that step (focus keys 0 and 1,
  // src/flow/engine.ts); later keys are the person's own moves.
  const openingDrawnStep = drawn && state.focusKey <= 1;
  /** Takes focus to `target` (none: leaves it), unless the person already placed it. */
  const placeFocus = useCallback(
    (target: HTMLElement | null | undefined) => {
      const active = document.activeElement;
      // A person already in one of the step's fields (typing into the server's drawing) stays there; so does
      // one who scrolled the drawn page or moved focus in it before the runtime started: taking focus would
      // scroll the page back to the field, under their pointer or from their keyboard.
      const placed =
        (active instanceof HTMLElement && active.matches(FOCUSABLE_FIELD) && cardRef.current?.contains(active)) ||
        (openingDrawnStep && (globalThis.scrollY > 0 || (active !== null && active !== document.body)));
      if (placed) focusPending.current = false;
      else if (target) {
        target.focus();
        focusPending.current = false;
      }
    },
    [openingDrawnStep],
  );
  const focusFirstField = useCallback(() => {
    if (focusPending.current) placeFocus(cardRef.current?.querySelector<HTMLElement>(FOCUSABLE_FIELD));
  }, [placeFocus]);
  useEffect(() => {
    focusPending.current = autoFocus;
    focusFirstField();
  }, [state.focusKey, focusFirstField, autoFocus]);
  useEffect(() => {
    // A step without fields: the heading takes focus so the new content is read from the top.
    if (focusPending.current && state.status === 'idle' && !step.form && !step.component) placeFocus(headingRef.current);
  }, [state.status, state.focusKey, step, placeFocus]);

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
