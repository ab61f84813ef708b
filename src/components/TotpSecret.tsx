// The authenticator-app setup's secret: the QR code to scan and, for apps that cannot scan, the secret
// as text in groups of four with a copy button. Renders nothing until the step's load answered.
import { useTexts } from '../i18n/texts.ts';
import type { FlowComponentProps } from '../flow/component-types.ts';
import { Button } from '../theme/Button.tsx';
import { useCopyToClipboard } from './copy-to-clipboard.ts';

/** Groups of four are easier to read off and type; apps ignore the spaces. */
export const groupSecret = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? '';

export default function TotpSecret({ props }: FlowComponentProps) {
  const { t } = useTexts();
  const [copied, copy] = useCopyToClipboard();
  const secret = typeof props.secret === 'string' ? props.secret : '';
  const qrCodeDataUrl =
    typeof props.qrCodeDataUrl === 'string' && props.qrCodeDataUrl.startsWith('data:image/png;') ? props.qrCodeDataUrl : '';
  if (!secret || !qrCodeDataUrl) return null;

  return (
    <div className="foyer-totp">
      <img className="foyer-totp__qr" src={qrCodeDataUrl} alt={t('mfa.setup.totp.qrAlt')} width={240} height={240} />
      <p>{t('mfa.setup.totp.secretLabel')}</p>
      <div className="foyer-totp__secret">
        <code translate="no">{groupSecret(secret)}</code>
        <Button variant="secondary" size="sm" onClick={() => copy(secret)}>
          {t('mfa.setup.totp.copy')}
        </Button>
      </div>
      <p role="status" className="foyer-totp__status">
        {copied === 'copied' ? t('mfa.setup.totp.copied') : copied === 'failed' ? t('mfa.setup.totp.copyFailed') : ''}
      </p>
    </div>
  );
}
