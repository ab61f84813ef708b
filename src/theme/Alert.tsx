import type { ReactNode } from 'react';
import type { AlertVariant } from '../flow/types.ts';

export interface AlertProps {
  variant?: AlertVariant;
  title?: ReactNode;
  children: ReactNode;
}

/** Danger and warning alerts interrupt (role=alert); the others are polite status messages. */
export function Alert({ variant = 'danger', title, children }: AlertProps) {
  const urgent = variant === 'danger' || variant === 'warning';
  return (
    <div className={`foyer-alert foyer-alert--${variant}`} role={urgent ? 'alert' : 'status'}>
      {title && <p className="foyer-alert__title">{title}</p>}
      <p className="foyer-alert__message">{children}</p>
    </div>
  );
}
