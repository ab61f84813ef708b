// An accessible modal dialog: role=dialog with aria-modal, labelled by its title and described by its
// message; the rest of the page is inert while it is open, Tab cycles inside it, Escape closes it, and
// focus returns to whatever had it before (the row button that opened it).
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Button } from './Button.tsx';

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export interface DialogProps {
  title: ReactNode;
  children: ReactNode;
  onClose(): void;
  /** Buttons at the bottom. */
  actions: ReactNode;
}

export function Dialog({ title, children, onClose, actions }: DialogProps) {
  const titleId = useId();
  const bodyId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const panel = panelRef.current;
    // Everything but the dialog leaves the tab order and the accessibility tree.
    const siblings = Array.from(document.body.children).filter(
      (element): element is HTMLElement => element instanceof HTMLElement && !element.contains(panel) && !element.inert,
    );
    for (const element of siblings) element.inert = true;
    panel?.querySelector<HTMLElement>(FOCUSABLE)?.focus();
    return () => {
      for (const element of siblings) element.inert = false;
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      closeRef.current();
      return;
    }
    if (event.key !== 'Tab') return;
    const focusable = Array.from(panelRef.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? []);
    if (focusable.length === 0) return;
    const first = focusable[0]!;
    const last = focusable[focusable.length - 1]!;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    <div className="foyer-dialog-backdrop">
      <div
        ref={panelRef}
        className="foyer-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={bodyId}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className="foyer-dialog__title">
          {title}
        </h2>
        <div id={bodyId}>{children}</div>
        <div className="foyer-dialog__actions">{actions}</div>
      </div>
    </div>,
    document.body,
  );
}

export interface ConfirmDialogProps {
  title: ReactNode;
  message: ReactNode;
  confirmLabel: ReactNode;
  cancelLabel: ReactNode;
  /** Danger styling for destructive confirmations (delete). */
  danger?: boolean;
  busy?: boolean;
  /** A failure of the confirmed action, shown inside the dialog. */
  error?: ReactNode;
  onConfirm(): void;
  onCancel(): void;
}

/** Asks before an action; Cancel comes first so Enter on an untouched dialog does nothing harmful. */
export function ConfirmDialog({ title, message, confirmLabel, cancelLabel, danger, busy, error, onConfirm, onCancel }: ConfirmDialogProps) {
  return (
    <Dialog
      title={title}
      onClose={onCancel}
      actions={
        <>
          <Button variant="secondary" size="md" onClick={onCancel}>
            {cancelLabel}
          </Button>
          <Button variant={danger ? 'danger' : 'primary'} size="md" loading={busy} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <p className="foyer-dialog__message">{message}</p>
      {error && (
        <p className="foyer-field-error" role="alert">
          {error}
        </p>
      )}
    </Dialog>
  );
}
