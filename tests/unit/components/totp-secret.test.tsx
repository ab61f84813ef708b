// @vitest-environment jsdom
// The authenticator-app setup's QR code and key: nothing before the setup answered, then the QR image
// with its text alternative, the key in groups of four, and a copy button that says what happened.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Suspense, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import TotpSecret, { groupSecret } from '../../../src/components/TotpSecret.tsx';
import type { FlowComponentProps } from '../../../src/flow/component-types.ts';
import { createI18n } from '../../../src/i18n/i18next.ts';
import { i18nextTexts } from '../../../src/i18n/i18next-texts.ts';
import { TextsProvider } from '../../../src/i18n/texts.ts';
import en from '../../../src/i18n/locales/en.json';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const QR = 'data:image/png;base64,iVBORw0KGgo=';

function show(props: Record<string, unknown>) {
  // Only `props` is read; the runner's operations are not used by this component.
  const componentProps = {
    props,
    form: {},
    status: 'idle',
    setForm: () => undefined,
    submit: () => undefined,
  } as unknown as FlowComponentProps;
  const wrap = (node: ReactNode) => (
    <TextsProvider store={i18nextTexts(createI18n('en', { en }))}>
      <Suspense fallback={null}>{node}</Suspense>
    </TextsProvider>
  );
  return render(wrap(<TotpSecret {...componentProps} />));
}

describe('TotpSecret', () => {
  it('shows nothing until the setup answered a secret and a PNG QR code', () => {
    expect(show({}).container.innerHTML).toBe('');
    cleanup();
    expect(show({ secret: SECRET, qrCodeDataUrl: 'javascript:alert(1)' }).container.innerHTML).toBe('');
  });

  it('shows the QR code with its text alternative and the key in groups of four', () => {
    show({ secret: SECRET, qrCodeDataUrl: QR });
    const image = screen.getByRole('img', { name: 'QR code that adds this account to your authenticator app' });
    expect(image.getAttribute('src')).toBe(QR);
    expect(screen.getByText("Can't scan the code? Enter this key in your app:")).toBeTruthy();
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP').tagName).toBe('CODE');
    expect(groupSecret('ABCDEF')).toBe('ABCD EF');
  });

  it('copies the key without spaces and says so', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    show({ secret: SECRET, qrCodeDataUrl: QR });
    fireEvent.click(screen.getByRole('button', { name: 'Copy key' }));
    expect(writeText).toHaveBeenCalledWith(SECRET);
    expect(await screen.findByText('Key copied.')).toBeTruthy();
  });
});
