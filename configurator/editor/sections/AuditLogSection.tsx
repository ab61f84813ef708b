// Audit log: the app's security and administration events (sign-ins, failures, sessions, second
// factors, members, config changes), newest first, filtered by event type and person and paged on the
// server (GET /admin/apps/{appId}/audit-log). Read-only; owners with TENANT_READ see it.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../src/theme/Alert.tsx';
import { Button } from '../../../src/theme/Button.tsx';
import { Pagination } from '../../../src/theme/Table.tsx';
import { pageCount } from '../../../src/theme/table-paging.ts';
import { APP_LOG_EVENTS } from '../../../common/app-log.ts';
import { errorText } from '../../components/errors.ts';
import { useConsole } from '../../session.tsx';
import { useEditor } from '../context.ts';
import { auditLogQueryKey } from '../query-keys.ts';
import { SectionHeading } from './SectionHeading.tsx';
import { formatTime } from './VersionsSection.tsx';

const eventKey = (type: string) => `auditLog.events.${type.replace(/\./g, '_')}`;

export function AuditLogSection() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const { api } = useConsole();
  const { appId } = useEditor();
  const [filter, setFilter] = useState({ type: '', person: '' });
  const [typeInput, setTypeInput] = useState('');
  const [personInput, setPersonInput] = useState('');
  const [page, setPage] = useState({ index: 0, size: 20 });
  const query = { ...filter, offset: page.index * page.size, limit: page.size };
  const log = useQuery({
    queryKey: auditLogQueryKey(appId, query),
    queryFn: () => api.auditLog(appId, query),
    placeholderData: keepPreviousData,
  });
  const total = log.data?.total ?? 0;

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilter({ type: typeInput, person: personInput.trim() });
    setPage((current) => ({ ...current, index: 0 }));
  };

  const device = (browser: string | null, os: string | null) =>
    browser && os ? t('auditLog.deviceOf', { browser, os }) : (browser ?? os ?? '');

  return (
    <div className="foyer-stack">
      <SectionHeading label="sections.auditLog" intro="auditLog.intro" />
      <form className="foyer-actions console-audit__filters" onSubmit={apply} role="search" aria-label={t('auditLog.filters')}>
        <div className="foyer-field">
          <label className="foyer-label" htmlFor={`${id}-type`}>
            {t('auditLog.type')}
          </label>
          <select id={`${id}-type`} className="foyer-select" value={typeInput} onChange={(event) => setTypeInput(event.target.value)}>
            <option value="">{t('auditLog.anyType')}</option>
            {APP_LOG_EVENTS.map((type) => (
              <option key={type} value={type}>
                {t(eventKey(type))}
              </option>
            ))}
          </select>
        </div>
        <div className="foyer-field">
          <label className="foyer-label" htmlFor={`${id}-person`}>
            {t('auditLog.person')}
          </label>
          <input
            id={`${id}-person`}
            className="foyer-input"
            type="email"
            value={personInput}
            maxLength={320}
            placeholder={t('auditLog.personPlaceholder')}
            onChange={(event) => setPersonInput(event.target.value)}
          />
        </div>
        <Button type="submit" variant="secondary" size="md" loading={log.isFetching && !log.isPending}>
          {t('auditLog.apply')}
        </Button>
      </form>
      {log.isError && (
        <Alert variant="danger" title={t('errors.title')}>
          {errorText(t, log.error, 'auditLog.loadFailed')}
        </Alert>
      )}
      <div className="foyer-table-wrap" role="region" aria-labelledby={`${id}-caption`} tabIndex={0}>
        <table className="foyer-table" aria-busy={log.isFetching || undefined}>
          <caption id={`${id}-caption`} className="foyer-visually-hidden">
            {t('auditLog.tableTitle')}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t('auditLog.columns.when')}</th>
              <th scope="col">{t('auditLog.columns.what')}</th>
              <th scope="col">{t('auditLog.columns.who')}</th>
              <th scope="col">{t('auditLog.columns.device')}</th>
              <th scope="col">{t('auditLog.columns.address')}</th>
            </tr>
          </thead>
          <tbody>
            {log.isPending ? (
              <tr>
                <td colSpan={5} role="status">
                  {t('auditLog.loading')}
                </td>
              </tr>
            ) : total === 0 && !log.isError ? (
              <tr>
                <td colSpan={5}>{filter.type || filter.person ? t('auditLog.noMatches') : t('auditLog.empty')}</td>
              </tr>
            ) : (
              log.data?.entries.map((entry, index) => (
                <tr key={`${entry.at}-${index}`}>
                  <td>
                    <time dateTime={entry.at}>{formatTime(entry.at, i18n.language)}</time>
                  </td>
                  <td>{t(eventKey(entry.type), { defaultValue: entry.type })}</td>
                  <td>{entry.viaApiKey ? t('auditLog.apiKey') : entry.person}</td>
                  <td>{device(entry.browser, entry.os)}</td>
                  <td>{entry.ip}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {total > 0 && (
        <Pagination
          pageIndex={page.index}
          pages={pageCount(total, page.size)}
          pageSize={page.size}
          total={total}
          onPageIndex={(index) => setPage((current) => ({ ...current, index }))}
          onPageSize={(size) => setPage({ index: 0, size })}
        />
      )}
    </div>
  );
}
