// The e-mail's enterprise sign-in connections (SAML / OIDC), one button each.
import { useTexts } from '../i18n/texts.ts';
import type { FederationConnection } from '../auth/types.ts';
import type { FlowComponentProps } from '../flow/component-types.ts';
import { Button } from '../theme/Button.tsx';

function connectionsOf(value: unknown): FederationConnection[] {
  return Array.isArray(value) ? (value as FederationConnection[]) : [];
}

export default function FederationConnections({ props, status, submit, form }: FlowComponentProps) {
  const { t } = useTexts();
  const connections = connectionsOf(props.connections);
  return (
    <ul className="foyer-stack foyer-plain-list" aria-label={t('login.federation.connectionsLabel')}>
      {connections.map((connection) => (
        <li key={connection.id}>
          <Button
            variant="secondary"
            disabled={status !== 'idle' && form.connectionId !== connection.id}
            loading={status !== 'idle' && form.connectionId === connection.id}
            onClick={() => submit({ connectionId: connection.id, connectionType: connection.type })}
          >
            {t('login.federation.continueWith', { name: connection.name })}
          </Button>
        </li>
      ))}
    </ul>
  );
}
