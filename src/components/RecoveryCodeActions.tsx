// Beside the recovery code shown once at the end of two-factor setup: copy it, or download it as a
// text file, so it is kept somewhere other than the screen.
import { useTexts } from '../i18n/texts.ts';
import type { FlowComponentProps } from '../flow/component-types.ts';
import { Button } from '../theme/Button.tsx';
import { useCopyToClipboard } from './copy-to-clipboard.ts';

export default function RecoveryCodeActions({ props }: FlowComponentProps) {
  const { t } = useTexts();
  const [copied, copy] = useCopyToClipboard();
  const code = typeof props.code === 'string' ? props.code : '';
  if (!code) return null;

  const download = () => {
    const url = URL.createObjectURL(new Blob([`${t('mfa.setup.recovery.fileText', { code })}\n`], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = t('mfa.setup.recovery.fileName');
    link.click();
    URL.revokeObjectURL(url);
  };

  return (
    <div className="foyer-stack">
      <div className="foyer-actions">
        <Button variant="secondary" size="sm" className="foyer-button--inline" onClick={() => copy(code)}>
          {t('mfa.setup.recovery.copy')}
        </Button>
        <Button variant="secondary" size="sm" className="foyer-button--inline" onClick={download}>
          {t('mfa.setup.recovery.download')}
        </Button>
      </div>
      <p role="status" className="foyer-totp__status">
        {copied === 'copied' ? t('mfa.setup.recovery.copied') : copied === 'failed' ? t('mfa.setup.recovery.copyFailed') : ''}
      </p>
    </div>
  );
}
