import type { ReactNode } from 'react';
import type { AlertVariant } from '../flow/types.ts';

export interface AlertProps {
  variant?: AlertVariant;
  title?: ReactNode;
  /**
   * Announce politely (role=status) even for danger and warning: for content that changes while the
   * user types, which an interrupting alert would read out at every key.
   */
  polite?: boolean;
  children: ReactNode;
}

/** Danger and warning alerts interrupt (role=alert); the others are polite status messages. */
export function Alert({ variant = 'danger', title, polite = false, children }: AlertProps) {
  const urgent = !polite && (variant === 'danger' || variant === 'warning');
  return (
    <div className={`foyer-alert foyer-alert--${variant}`} role={urgent ? 'alert' : 'status'}>
      {title && <p className="foyer-alert__title">{title}</p>}
      {typeof children === 'string' ? (
        <p className="foyer-alert__message">{children}</p>
      ) : (
        <div className="foyer-alert__message">{children}</div>
      )}
    </div>
  );
}
