// The profile's recent account activity: sign-ins (with how), failed attempts, sign-outs and passkey or
// two-factor changes, each with when, on which device and from which address, newest first (GraphQL myActivity).
import { useTexts } from '../i18n/texts.ts';
import { useGraphQL } from '../api/react.tsx';
import type { FlowComponentProps } from '../flow/component-types.ts';
import { auditEventKey, deviceLabel, formatDateTime } from '../i18n/index.ts';
import { MyActivityDocument } from '../gql/graphql.ts';
import { Alert } from '../theme/Alert.tsx';

export default function ActivityList(_props: FlowComponentProps) {
  const { t, texts } = useTexts();
  const activity = useGraphQL(MyActivityDocument, { limit: 20 });
  const what = (type: string, method: string | null | undefined) =>
    type === 'login.success' && method
      ? t('activity.signedInWith', { method: t(`activity.methods.${method}`, { defaultValue: method }) })
      : t(auditEventKey('activity.events', type), { defaultValue: type });

  return (
    <section className="foyer-stack foyer-panel-section" aria-labelledby="foyer-activity-heading">
      <h2 id="foyer-activity-heading" className="foyer-section-title">
        {t('activity.heading')}
      </h2>
      {activity.isPending && <p role="status">{t('app.loading')}</p>}
      {activity.isError && <Alert title={t('errors.title')}>{t('activity.errors.load')}</Alert>}
      {activity.data && activity.data.myActivity.length === 0 && <p>{t('activity.none')}</p>}
      {activity.data && activity.data.myActivity.length > 0 && (
        <ul className="foyer-stack foyer-plain-list" aria-label={t('activity.heading')}>
          {activity.data.myActivity.map((event) => (
            <li key={`${event.at}-${event.type}`} className="foyer-activity">
              <p className="foyer-activity__what">{what(event.type, event.method)}</p>
              <p className="foyer-activity__when">
                <time dateTime={event.at}>{formatDateTime(event.at, texts.language)}</time>
                {deviceLabel(t, event.browser, event.os) && ` · ${deviceLabel(t, event.browser, event.os)}`}
                {event.ip && ` · ${t('activity.from', { ip: event.ip })}`}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
