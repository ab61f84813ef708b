// API key: when the current key was made; Regenerate (after confirmation) replaces every old key and
// shows the new one once.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../src/theme/Alert.tsx';
import { Button } from '../../../src/theme/Button.tsx';
import { ConfirmDialog } from '../../../src/theme/Dialog.tsx';
import { CopyField } from '../../components/CopyField.tsx';
import { errorText } from '../../components/errors.ts';
import { useConsole } from '../../session.tsx';
import { useEditor } from '../context.ts';
import { appQueryKey } from '../query-keys.ts';
import { SectionHeading } from './SectionHeading.tsx';
import { formatTime } from './VersionsSection.tsx';

export function ApiKeySection() {
  const { t, i18n } = useTranslation();
  const { api } = useConsole();
  const { appId, detail } = useEditor();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const regenerate = useMutation({
    mutationFn: () => api.regenerateApiKey(appId),
    onSuccess: () => {
      setConfirming(false);
      void queryClient.invalidateQueries({ queryKey: appQueryKey(appId) });
    },
  });

  return (
    <div className="foyer-stack">
      <SectionHeading label="sections.apiKey" intro="apiKey.intro" />
      <p>
        {detail.apiKeyCreatedAt
          ? t('apiKey.createdAt', { time: formatTime(detail.apiKeyCreatedAt, i18n.language) })
          : t('apiKey.none')}
      </p>
      {regenerate.data && (
        <>
          <CopyField label={t('apiKey.newKey')} value={regenerate.data.apiKey} />
          <Alert variant="warning" title={t('createApp.created.keyOnceTitle')} polite>
            {t('apiKey.shownOnce')}
          </Alert>
        </>
      )}
      <Button variant="danger" size="md" className="console__inline-button" onClick={() => setConfirming(true)}>
        {t('apiKey.regenerate')}
      </Button>
      {confirming && (
        <ConfirmDialog
          title={t('apiKey.confirmTitle')}
          message={t('apiKey.confirmMessage')}
          confirmLabel={t('apiKey.confirm')}
          cancelLabel={t('actions.cancel')}
          danger
          busy={regenerate.isPending}
          error={regenerate.isError ? errorText(t, regenerate.error, 'apiKey.failed') : undefined}
          onConfirm={() => regenerate.mutate()}
          onCancel={() => setConfirming(false)}
        />
      )}
    </div>
  );
}
