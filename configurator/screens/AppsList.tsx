// The owner's apps: name (opens the editor), application ID, live version and a draft badge; an empty
// state that leads to "Create app".
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '../../src/theme/Alert.tsx';
import { errorText } from '../components/errors.ts';
import { usePageTitle } from '../layout/usePageTitle.ts';
import { useConsole } from '../session.tsx';

export const appsQueryKey = ['apps'] as const;

export function AppsList() {
  const { t } = useTranslation();
  const { api } = useConsole();
  const apps = useQuery({ queryKey: appsQueryKey, queryFn: () => api.listApps() });
  usePageTitle(t('apps.heading'));

  return (
    <div className="foyer-panel">
      <div className="console__title-row">
        <h1 className="foyer-panel__heading">{t('apps.heading')}</h1>
        <Link to="/apps/new" className="foyer-button foyer-button--primary foyer-button--md console__inline-button">
          {t('apps.create')}
        </Link>
      </div>
      {apps.isPending && (
        <p role="status">
          <span className="foyer-spinner foyer-inline" aria-hidden="true" /> {t('apps.loading')}
        </p>
      )}
      {apps.isError && (
        <Alert variant="danger" title={t('errors.title')}>
          {errorText(t, apps.error, 'apps.loadFailed')}
        </Alert>
      )}
      {apps.data && apps.data.apps.length === 0 && (
        <div className="console__empty">
          <p className="foyer-section-title">{t('apps.empty.heading')}</p>
          <p>{t('apps.empty.message')}</p>
        </div>
      )}
      {apps.data && apps.data.apps.length > 0 && (
        <div className="foyer-table-wrap">
          <table className="foyer-table">
            <caption className="foyer-visually-hidden">{t('apps.tableCaption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('apps.columns.name')}</th>
                <th scope="col">{t('apps.columns.id')}</th>
                <th scope="col">{t('apps.columns.version')}</th>
                <th scope="col">{t('apps.columns.status')}</th>
              </tr>
            </thead>
            <tbody>
              {apps.data.apps.map((app) => (
                <tr key={app.id}>
                  <th scope="row">
                    <Link to={`/apps/${encodeURIComponent(app.id)}`}>{app.name}</Link>
                  </th>
                  <td>
                    <code>{app.id}</code>
                  </td>
                  <td>{app.publishedVersion > 0 ? t('apps.version', { version: app.publishedVersion }) : t('apps.neverPublished')}</td>
                  <td>
                    {app.hasDraft ? (
                      <>
                        <span className="console__badge console__badge--draft">{t('apps.draftBadge')}</span> {t('apps.status.draft')}
                      </>
                    ) : (
                      t(app.publishedVersion > 0 ? 'apps.status.live' : 'apps.neverPublished')
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
