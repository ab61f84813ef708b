// A workspace's administration log for its OWNERs and ADMINs: who invited, changed or removed whom,
// and workspace changes, newest first; filtered by who acted and by event type, paged on the server
// (GraphQL workspaceLog).
import { useId, useState } from 'react';
import { useTexts } from '../i18n/texts.ts';
import { useGraphQL } from '../api/react.tsx';
import type { FlowComponentProps } from '../flow/component-types.ts';
import { ListUsersDocument, WorkspaceLogDocument } from '../gql/graphql.ts';
import { Alert } from '../theme/Alert.tsx';
import { auditEventKey, formatDateTime } from '../i18n/index.ts';
import { WORKSPACE_LOG_EVENTS } from '../../common/workspace-log.ts';
import { Pagination } from '../theme/Table.tsx';
import { pageCount } from '../theme/table-paging.ts';

const eventKey = (type: string) => auditEventKey('workspaceLog.events', type);

export default function WorkspaceLog(_props: FlowComponentProps) {
  const { t, texts } = useTexts();
  const id = useId();
  const [actor, setActor] = useState('');
  const [type, setType] = useState('');
  const [page, setPage] = useState({ index: 0, size: 20 });
  const members = useGraphQL(ListUsersDocument, { limit: 100 });
  const log = useGraphQL(WorkspaceLogDocument, {
    actorTenantUserId: actor || null,
    type: type || null,
    offset: page.index * page.size,
    limit: page.size,
  });
  const total = log.data?.workspaceLog.total ?? 0;

  return (
    <section className="foyer-stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="foyer-section-title">
        {t('workspaceLog.tableTitle')}
      </h2>
      <div className="foyer-actions">
        <FilterSelect
          id={`${id}-actor`}
          label={t('workspaceLog.actor')}
          value={actor}
          options={[
            ['', t('workspaceLog.anyone')],
            ...(members.data?.usersPage.users ?? []).map((member): [string, string] => [member.id, member.fullName || member.email || '']),
          ]}
          onChange={(value) => {
            setActor(value);
            setPage((current) => ({ ...current, index: 0 }));
          }}
        />
        <FilterSelect
          id={`${id}-type`}
          label={t('workspaceLog.type')}
          value={type}
          options={[
            ['', t('workspaceLog.anyType')],
            ...WORKSPACE_LOG_EVENTS.map((eventType): [string, string] => [eventType, t(eventKey(eventType))]),
          ]}
          onChange={(value) => {
            setType(value);
            setPage((current) => ({ ...current, index: 0 }));
          }}
        />
      </div>
      {log.isError && <Alert title={t('errors.title')}>{t('workspaceLog.errors.load')}</Alert>}
      <div className="foyer-table-wrap" role="region" aria-labelledby={`${id}-title`} tabIndex={0}>
        <table className="foyer-table" aria-busy={log.isFetching || undefined}>
          <caption className="foyer-visually-hidden">{t('workspaceLog.tableTitle')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('workspaceLog.columns.when')}</th>
              <th scope="col">{t('workspaceLog.columns.who')}</th>
              <th scope="col">{t('workspaceLog.columns.what')}</th>
              <th scope="col">{t('workspaceLog.columns.whom')}</th>
              <th scope="col">{t('workspaceLog.columns.address')}</th>
            </tr>
          </thead>
          <tbody>
            {log.isPending ? (
              <tr>
                <td colSpan={5} role="status">
                  {t('app.loading')}
                </td>
              </tr>
            ) : total === 0 && !log.isError ? (
              <tr>
                <td colSpan={5}>{t('workspaceLog.empty')}</td>
              </tr>
            ) : (
              log.data?.workspaceLog.entries.map((entry, index) => (
                <tr key={`${entry.at}-${index}`}>
                  <td>
                    <time dateTime={entry.at}>{formatDateTime(entry.at, texts.language)}</time>
                  </td>
                  <td>{entry.actorEmail}</td>
                  <td>{t(eventKey(entry.type), { defaultValue: entry.type })}</td>
                  <td>{entry.targetEmail}</td>
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
    </section>
  );
}

interface FilterSelectProps {
  id: string;
  label: string;
  value: string;
  /** [value, label] pairs; the first is "any". */
  options: [string, string][];
  onChange(value: string): void;
}

function FilterSelect({ id, label, value, options, onChange }: FilterSelectProps) {
  return (
    <div className="foyer-field">
      <label className="foyer-label" htmlFor={id}>
        {label}
      </label>
      <select id={id} className="foyer-select" value={value} onChange={(event) => onChange(event.target.value)}>
        {options.map(([optionValue, optionLabel]) => (
          <option key={optionValue} value={optionValue}>
            {optionLabel}
          </option>
        ))}
      </select>
    </div>
  );
}
