import type { ReactNode } from 'react';

/** A horizontal rule with optional text in the middle ('or'). */
export function Divider({ children }: { children?: ReactNode }) {
  if (!children) return <hr className="foyer-rule" />;
  return (
    <div className="foyer-divider" role="separator" aria-label={typeof children === 'string' ? children : undefined}>
      <span>{children}</span>
    </div>
  );
}
