// @vitest-environment jsdom
// The confirmation dialog: labelled modal, the page behind it inert, Tab kept inside, Escape closes,
// and focus back on the button that opened it.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfirmDialog } from '../../../src/theme/Dialog.tsx';

afterEach(cleanup);

function Page({ onConfirm }: { onConfirm(): void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Delete
      </button>
      {open && (
        <ConfirmDialog
          title="Delete user"
          message="Are you sure you want to delete the user Adam Admin?"
          confirmLabel="Delete"
          cancelLabel="Cancel"
          danger
          onConfirm={onConfirm}
          onCancel={() => setOpen(false)}
        />
      )}
    </>
  );
}

describe('ConfirmDialog', () => {
  it('is a labelled modal that keeps focus inside, closes on Escape and gives focus back', () => {
    let confirmed = 0;
    const { container } = render(<Page onConfirm={() => (confirmed += 1)} />);
    const opener = screen.getByRole('button', { name: 'Delete' });
    opener.focus();
    fireEvent.click(opener);

    const dialog = screen.getByRole('dialog', { name: 'Delete user' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.getAttribute('aria-describedby') && document.getElementById(dialog.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Are you sure you want to delete the user Adam Admin?',
    );
    expect((container as HTMLElement).inert).toBe(true);
    const [cancel, confirm] = Array.from(dialog.querySelectorAll('button'));
    expect(document.activeElement).toBe(cancel);

    // Tab from the last button wraps to the first, Shift+Tab from the first to the last.
    confirm!.focus();
    fireEvent.keyDown(confirm!, { key: 'Tab' });
    expect(document.activeElement).toBe(cancel);
    fireEvent.keyDown(cancel!, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(confirm);

    fireEvent.keyDown(confirm!, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect((container as HTMLElement).inert).toBe(false);
    expect(document.activeElement).toBe(opener);
    expect(confirmed).toBe(0);

    fireEvent.click(opener);
    fireEvent.click(screen.getAllByRole('button', { name: 'Delete' }).at(-1)!);
    expect(confirmed).toBe(1);
  });
});
