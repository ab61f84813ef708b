// Role and plan gating for flows: renders the registered `component` (with `props`) only for users
// holding one of `roles` and/or whose workspace plan is one of `plans`; nothing while the plan loads.
import { Suspense } from 'react';
import { Gate } from '../access/Gate.tsx';
import type { FlowComponentProps } from '../flow/component-types.ts';
import { isComponentName } from '../flow/registry-names.ts';
import { componentRegistry } from './registry.ts';

function names(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined;
}

export default function AccessGate(flowProps: FlowComponentProps) {
  const { props } = flowProps;
  const name = typeof props.component === 'string' ? props.component : '';
  const Component = isComponentName(name) && name !== 'AccessGate' ? componentRegistry[name] : undefined;
  if (!Component) return null;
  const inner = typeof props.props === 'object' && props.props !== null ? (props.props as Record<string, unknown>) : {};
  return (
    <Gate roles={names(props.roles)} plans={names(props.plans)}>
      <Suspense fallback={null}>
        <Component {...flowProps} props={inner} />
      </Suspense>
    </Gate>
  );
}
