// A credential Foyer keeps only sealed (a client secret): when the current one
// was made, a button that makes one (replacing the current one after confirmation), and the new value
// shown once with a copy button. `texts` is the translation prefix (client.secret).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../src/theme/Alert.tsx';
import { Button } from '../../../src/theme/Button.tsx';
import { ConfirmDialog } from '../../../src/theme/Dialog.tsx';
import { CopyField } from '../../components/CopyField.tsx';
import { errorText } from '../../components/errors.ts';
import { useEditor } from '../context.ts';
import { appQueryKey } from '../query-keys.ts';
import { formatTime } from './VersionsSection.tsx';

export function ShownOnceSecret({ texts, createdAt, make }: { texts: string; createdAt: string | null; make: () => Promise<string> }) {
  const { t, i18n } = useTranslation();
  const { appId } = useEditor();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const regenerate = useMutation({
    mutationFn: make,
    onSuccess: () => {
      setConfirming(false);
      void queryClient.invalidateQueries({ queryKey: appQueryKey(appId) });
    },
  });
  const failure = regenerate.isError ? errorText(t, regenerate.error, `${texts}.failed`) : undefined;
  return (
    <div className="foyer-stack">
      <p>{createdAt ? t(`${texts}.createdAt`, { time: formatTime(createdAt, i18n.language) }) : t(`${texts}.none`)}</p>
      {regenerate.data && (
        <>
          <CopyField label={t(`${texts}.newValue`)} value={regenerate.data} />
          <Alert variant="warning" title={t(`${texts}.onceTitle`)} polite>
            {t(`${texts}.shownOnce`)}
          </Alert>
        </>
      )}
      <Button
        variant={createdAt ? 'danger' : 'secondary'}
        size="md"
        className="console__inline-button"
        loading={regenerate.isPending && !confirming}
        onClick={() => (createdAt ? setConfirming(true) : regenerate.mutate())}
      >
        {createdAt ? t(`${texts}.regenerate`) : t(`${texts}.create`)}
      </Button>
      {failure && !confirming && (
        <Alert variant="danger" title={t('errors.title')}>
          {failure}
        </Alert>
      )}
      {confirming && (
        <ConfirmDialog
          title={t(`${texts}.confirmTitle`)}
          message={t(`${texts}.confirmMessage`)}
          confirmLabel={t(`${texts}.confirm`)}
          cancelLabel={t('actions.cancel')}
          danger
          busy={regenerate.isPending}
          error={failure}
          onConfirm={() => regenerate.mutate()}
          onCancel={() => setConfirming(false)}
        />
      )}
    </div>
  );
}
