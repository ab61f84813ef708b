// The workspace's two-factor switch: each change goes to updateTenant at once, with its own busy
// state, its own error and a confirmation of the new setting. Flows show it only when the app has
// MFA available.
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTexts } from '../i18n/texts.ts';
import { graphQLQueryKey, useGraphQL, useGraphQLMutation } from '../api/react.tsx';
import type { FlowComponentProps } from '../flow/component-types.ts';
import { GetTenantDocument, UpdateTenantDocument, type GetTenantQuery } from '../gql/graphql.ts';
import { Alert } from '../theme/Alert.tsx';
import { Switch } from '../theme/Switch.tsx';

export default function TwoFactorToggle(_props: FlowComponentProps) {
  const { t } = useTexts();
  const queryClient = useQueryClient();
  const errorId = useId();
  const tenant = useGraphQL(GetTenantDocument);
  const update = useGraphQLMutation(UpdateTenantDocument);
  const [changed, setChanged] = useState(false);
  const enabled = tenant.data?.getTenant.mfa === true;

  if (tenant.isPending) return <p role="status">{t('app.loading')}</p>;

  const change = (mfa: boolean) => {
    setChanged(false);
    update.mutate(
      { tenant: { mfa } },
      {
        onSuccess: (data) => {
          queryClient.setQueryData<GetTenantQuery>(graphQLQueryKey(GetTenantDocument), (current) =>
            current ? { ...current, getTenant: { ...current.getTenant, mfa: data.updateTenant.mfa } } : current,
          );
          setChanged(true);
        },
      },
    );
  };

  return (
    <div className="foyer-stack foyer-panel-section">
      <Switch
        checked={enabled}
        label={t('workspace.mfa.label')}
        busy={update.isPending}
        describedBy={update.isError ? errorId : undefined}
        onChange={change}
      />
      {update.isError && (
        <div id={errorId}>
          <Alert title={t('errors.title')}>{t('workspace.errors.generic')}</Alert>
        </div>
      )}
      {changed && <Alert variant="success">{t(enabled ? 'workspace.mfa.on' : 'workspace.mfa.off')}</Alert>}
    </div>
  );
}
