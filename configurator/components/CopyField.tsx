// A value to take away (application ID, API key): read-only, selectable, with a copy button whose
// outcome is announced politely.
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../src/theme/Button.tsx';

export function CopyField({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation();
  const id = useId();
  const [status, setStatus] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <div className="foyer-field">
      <label className="foyer-label" htmlFor={id}>
        {label}
      </label>
      <div className="console__copy">
        <input id={id} className="foyer-input console__mono" value={value} readOnly onFocus={(event) => event.target.select()} />
        <Button
          variant="secondary"
          size="md"
          className="console__inline-button"
          onClick={() => {
            navigator.clipboard
              .writeText(value)
              .then(() => setStatus('copied'))
              .catch(() => setStatus('failed'));
          }}
        >
          {t('copy.button', { label })}
        </Button>
      </div>
      <p className="foyer-help" role="status">
        {status === 'copied' ? t('copy.copied') : status === 'failed' ? t('copy.failed') : ''}
      </p>
    </div>
  );
}
