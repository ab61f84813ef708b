// An on/off switch: a button with role=switch and aria-checked, labelled by its visible text.
import { useId, type ReactNode } from 'react';

export interface SwitchProps {
  checked: boolean;
  label: ReactNode;
  onChange(checked: boolean): void;
  disabled?: boolean;
  /** Shows the busy state while the change is saved. */
  busy?: boolean;
  /** Ids of elements describing the switch (an error message). */
  describedBy?: string;
}

export function Switch({ checked, label, onChange, disabled, busy, describedBy }: SwitchProps) {
  const labelId = useId();
  return (
    <span className="foyer-switch">
      <button
        type="button"
        role="switch"
        className="foyer-switch__control"
        aria-checked={checked}
        aria-labelledby={labelId}
        aria-describedby={describedBy}
        aria-busy={busy || undefined}
        disabled={disabled}
        onClick={() => {
          if (!busy) onChange(!checked);
        }}
      >
        <span className="foyer-switch__thumb" aria-hidden="true" />
      </button>
      <span id={labelId} className="foyer-switch__label">
        {label}
      </span>
    </span>
  );
}
