// The workspace's logo on its settings screen, or its initials when none is set or it fails to load.
// Those who may change the workspace (TENANT_WRITE) upload a new one here: the server checks it like
// the configurator's app logo (POST /workspace/logo, server/branding/workspace-logo.ts), and the
// tokens are renewed so the header and the picker show it too.
import { useId, useRef, useState } from 'react';
import { useTexts } from '../i18n/texts.ts';
import { useRuntime } from '../runtime/context.tsx';
import { ApiError } from '../http/errors.ts';
import type { FlowComponentProps } from '../flow/component-types.ts';
import { LOGO_MAX_BYTES, LOGO_TYPES } from '../../common/logos.ts';
import { BrandMark } from '../theme/BrandMark.tsx';

/** The refusals a person can act on; anything else reads as the generic failure. */
const UPLOAD_ERRORS = ['UNSUPPORTED_IMAGE', 'FILE_TOO_LARGE', 'TOO_MANY_UPLOADS', 'FORBIDDEN'];

type Upload = { state: 'idle' | 'done' } | { state: 'busy'; name: string } | { state: 'failed'; code: string };

export default function WorkspaceLogo({ props }: FlowComponentProps) {
  const { t } = useTexts();
  const { api, auth } = useRuntime();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [uploaded, setUploaded] = useState<string | null>(null);
  const [upload, setUpload] = useState<Upload>({ state: 'idle' });
  const logo = uploaded ?? (typeof props.logo === 'string' && props.logo ? props.logo : undefined);
  const name = typeof props.name === 'string' && props.name ? props.name : t('chooseUser.newAccount');

  const send = async (file: File) => {
    setUpload({ state: 'busy', name: file.name });
    try {
      const answer = await api.rest<{ logo: string }>('/workspace/logo', { method: 'POST', file });
      setUploaded(answer.logo);
      setUpload({ state: 'done' });
      await auth.refresh();
    } catch (error) {
      const code = error instanceof ApiError && error.code && UPLOAD_ERRORS.includes(error.code) ? error.code : 'generic';
      setUpload({ state: 'failed', code });
    } finally {
      if (input.current) input.current.value = '';
    }
  };

  return (
    <div className="foyer-stack">
      <figure className="foyer-workspace-logo">
        <BrandMark className="foyer-workspace-logo__mark" src={logo} name={name} alt={t('workspace.logoAlt', { name })} />
        <figcaption>{t('workspace.logo')}</figcaption>
      </figure>
      {props.editable === true && (
        <div className="foyer-field">
          <label className="foyer-label" htmlFor={inputId}>
            {t('workspace.uploadLogo')}
          </label>
          <input
            ref={input}
            id={inputId}
            className="foyer-file"
            type="file"
            accept={LOGO_TYPES.join(',')}
            aria-describedby={`${inputId}-help${upload.state === 'failed' ? ` ${inputId}-error` : ''}`}
            aria-invalid={upload.state === 'failed' || undefined}
            disabled={upload.state === 'busy'}
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) void send(file);
            }}
          />
          <p id={`${inputId}-help`} className="foyer-help" role="status">
            {upload.state === 'busy'
              ? t('workspace.uploading', { name: upload.name })
              : upload.state === 'done'
                ? t('workspace.logoUploaded')
                : t('workspace.logoHelp', { kb: LOGO_MAX_BYTES / 1024 })}
          </p>
          {upload.state === 'failed' && (
            <p id={`${inputId}-error`} className="foyer-field-error" role="alert">
              {t(`workspace.logoErrors.${upload.code}`, { kb: LOGO_MAX_BYTES / 1024 })}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
