// A slot of a step (docs/SPEC.md's buttons, links, dividers, alerts and registered components beside
// the form), shown only to users its `access` rule lets in.
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { componentRegistry } from '../../../components/registry.ts';
import { evaluate, evaluateMapping } from '../../../flow/logic.ts';
import { isComponentName } from '../../../flow/registry-names.ts';
import type { Slot } from '../../../flow/types.ts';
import { Alert } from '../../../theme/Alert.tsx';
import { Button } from '../../../theme/Button.tsx';
import { Divider } from '../../../theme/Divider.tsx';
import { AppLink } from '../../navigation.tsx';
import type { StepViewProps } from './types.ts';

/** The gate loads with TanStack Query (it may ask for the workspace's plan), only on screens that gate a slot. */
const SlotGate = lazy(() => import('./SlotGate.tsx'));

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

function SlotContent({ slot, runner, state, context, translate }: SlotViewProps) {
  switch (slot.type) {
    case 'button':
      return <SlotButton slot={slot} runner={runner} state={state} translate={translate} />;
    case 'link': {
      const label = translate(slot.label);
      const href = slot.href === undefined ? undefined : evaluate(slot.href, context);
      const link: ReactNode = slot.to ? (
        <AppLink to={slot.to}>{label}</AppLink>
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

export function SlotView(props: SlotViewProps) {
  const content = <SlotContent {...props} />;
  if (!props.slot.access) return content;
  return (
    <Suspense fallback={null}>
      <SlotGate roles={props.slot.access.roles} plans={props.slot.access.plans}>
        {content}
      </SlotGate>
    </Suspense>
  );
}
