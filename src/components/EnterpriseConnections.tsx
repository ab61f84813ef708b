// The workspace's enterprise sign-in connections (OIDC or SAML 2.0), for its owners: each with what to
// register at the IdP, its e-mail domains and their proof (a DNS record or a link mailed to one of the
// domain's role mailboxes), and a form to add or edit one. The server decides who may, and which
// domains may be claimed (server/graphql/enterprise/resolvers.ts); the flow shows this to owners only.
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTexts } from '../i18n/texts.ts';
import { graphQLQueryKey, useGraphQL, useGraphQLMutation } from '../api/react.tsx';
import type { FlowComponentProps } from '../flow/component-types.ts';
import {
  CreateEnterpriseConnectionDocument,
  DeleteEnterpriseConnectionDocument,
  EnterpriseConnectionsDocument,
  SendEnterpriseDomainMailDocument,
  UpdateEnterpriseConnectionDocument,
  VerifyEnterpriseDomainDocument,
  type EnterpriseConnectionFieldsFragment as Connection,
} from '../gql/graphql.ts';
import { ApiError } from '../http/errors.ts';
import { DOMAIN_MAILBOXES, type DomainMailbox } from '../../common/domain-mailboxes.ts';
import { Alert } from '../theme/Alert.tsx';
import { Button } from '../theme/Button.tsx';

const ROLES = ['VIEWER', 'MANAGER', 'ADMIN'] as const;
const FIELD_NAMES = [
  'name',
  'domains',
  'defaultRole',
  'oidcIssuer',
  'oidcClientId',
  'oidcClientSecret',
  'samlMetadataXml',
  'samlIdpEntityId',
  'samlSsoUrl',
  'samlCertificate',
] as const;
type FieldName = (typeof FIELD_NAMES)[number];
type Draft = Record<FieldName, string> & { kind: 'OIDC' | 'SAML' };

const emptyDraft: Draft = {
  kind: 'OIDC',
  name: '',
  domains: '',
  defaultRole: 'VIEWER',
  oidcIssuer: '',
  oidcClientId: '',
  oidcClientSecret: '',
  samlMetadataXml: '',
  samlIdpEntityId: '',
  samlSsoUrl: '',
  samlCertificate: '',
};

function draftOf(connection: Connection): Draft {
  return {
    ...emptyDraft,
    kind: connection.kind === 'SAML' ? 'SAML' : 'OIDC',
    name: connection.name,
    domains: connection.domains.map((entry) => entry.domain).join(', '),
    defaultRole: connection.defaultRole,
    oidcIssuer: connection.oidcIssuer ?? '',
    oidcClientId: connection.oidcClientId ?? '',
    samlIdpEntityId: connection.samlIdpEntityId ?? '',
    samlSsoUrl: connection.samlSsoUrl ?? '',
  };
}

/** The fields a refused save names (extensions.fields), known ones only. */
function fieldsAtFault(error: unknown): FieldName[] {
  if (!(error instanceof ApiError) || error.code !== 'BAD_USER_INPUT' || !Array.isArray(error.details)) return [];
  const fields = (error.details[0] as { extensions?: { fields?: Record<string, unknown> } } | undefined)?.extensions?.fields ?? {};
  return FIELD_NAMES.filter((name) => name in fields);
}

/** Domain claims the server refuses whatever the input's form: their own texts name the domain. */
const CLAIM_REFUSALS = ['publicMailDomain', 'domainClaimed'] as const;
type ClaimRefusal = (typeof CLAIM_REFUSALS)[number];

/** The claim refusal a refused call names for `field` (extensions.fieldIssues), with its domain. */
function claimRefusalOf(error: unknown, field: string): { code: ClaimRefusal; domain: string } | undefined {
  if (!(error instanceof ApiError) || error.code !== 'BAD_USER_INPUT' || !Array.isArray(error.details)) return undefined;
  const issues = (error.details[0] as { extensions?: { fieldIssues?: Record<string, { code?: string; params?: { domain?: unknown } }[]> } })
    ?.extensions?.fieldIssues?.[field];
  const issue = issues?.find((entry) => CLAIM_REFUSALS.includes(entry.code as ClaimRefusal));
  return issue && typeof issue.params?.domain === 'string' ? { code: issue.code as ClaimRefusal, domain: issue.params.domain } : undefined;
}

function ConnectionForm({ editing, onDone }: { editing?: Connection; onDone: (saved: boolean) => void }) {
  const { t } = useTexts();
  const formId = useId();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(editing ? draftOf(editing) : emptyDraft);
  const create = useGraphQLMutation(CreateEnterpriseConnectionDocument);
  const update = useGraphQLMutation(UpdateEnterpriseConnectionDocument);
  const saving = create.isPending || update.isPending;
  const error = create.error ?? update.error;
  const faults = fieldsAtFault(error);
  const refusedDomain = claimRefusalOf(error, 'domains');

  const set = (name: keyof Draft, value: string) => setDraft((current) => ({ ...current, [name]: value }));

  const field = (name: FieldName, type: 'text' | 'url' | 'password' | 'textarea' = 'text', help?: ReactNode) => {
    const id = `${formId}-${name}`;
    const invalid = faults.includes(name);
    const described = [help ? `${id}-help` : '', invalid ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
    const common = {
      id,
      className: 'foyer-input',
      value: draft[name],
      'aria-invalid': invalid ? true : undefined,
      'aria-describedby': described,
    };
    return (
      <div className="foyer-field">
        <label className="foyer-label" htmlFor={id}>
          {t(`enterprise.fields.${name}`)}
        </label>
        {type === 'textarea' ? (
          <textarea {...common} rows={4} spellCheck={false} onChange={(event) => set(name, event.target.value)} />
        ) : (
          <input
            {...common}
            type={type}
            autoComplete={type === 'password' ? 'new-password' : 'off'}
            onChange={(event) => set(name, event.target.value)}
          />
        )}
        {help && (
          <p id={`${id}-help`} className="foyer-help">
            {help}
          </p>
        )}
        {invalid && (
          <p id={`${id}-error`} className="foyer-field-error">
            {name === 'domains' && refusedDomain
              ? t(`enterprise.fieldErrors.${refusedDomain.code}`, { domain: refusedDomain.domain })
              : t(`enterprise.fieldErrors.${name}`)}
          </p>
        )}
      </div>
    );
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const saml = draft.kind === 'SAML';
    const connection = {
      name: draft.name,
      defaultRole: draft.defaultRole,
      domains: draft.domains.split(/[\s,;]+/).filter(Boolean),
      ...(saml
        ? {
            samlMetadataXml: draft.samlMetadataXml || null,
            samlIdpEntityId: draft.samlIdpEntityId || null,
            samlSsoUrl: draft.samlSsoUrl || null,
            samlCertificate: draft.samlCertificate || null,
          }
        : { oidcIssuer: draft.oidcIssuer, oidcClientId: draft.oidcClientId, oidcClientSecret: draft.oidcClientSecret || null }),
    };
    const done = () => {
      void queryClient.invalidateQueries({ queryKey: graphQLQueryKey(EnterpriseConnectionsDocument) });
      onDone(true);
    };
    if (editing) update.mutate({ id: editing.id, connection }, { onSuccess: done });
    else create.mutate({ connection: { ...connection, kind: draft.kind } }, { onSuccess: done });
  };

  return (
    <form className="foyer-stack foyer-panel-section" noValidate onSubmit={submit} aria-labelledby={`${formId}-title`}>
      <h3 id={`${formId}-title`} className="foyer-section-title">
        {editing ? t('enterprise.editTitle', { name: editing.name }) : t('enterprise.addTitle')}
      </h3>
      {!editing && (
        <fieldset className="foyer-choices">
          <legend className="foyer-label">{t('enterprise.fields.kind')}</legend>
          {(['OIDC', 'SAML'] as const).map((kind) => (
            <label key={kind} className="foyer-choice">
              <input type="radio" name={`${formId}-kind`} checked={draft.kind === kind} onChange={() => set('kind', kind)} />
              {t(`enterprise.kinds.${kind}`)}
            </label>
          ))}
        </fieldset>
      )}
      {field('name')}
      {field('domains', 'text', t('enterprise.domainsHelp'))}
      <div className="foyer-field">
        <label className="foyer-label" htmlFor={`${formId}-defaultRole`}>
          {t('enterprise.fields.defaultRole')}
        </label>
        <select
          id={`${formId}-defaultRole`}
          className="foyer-select"
          value={draft.defaultRole}
          onChange={(event) => set('defaultRole', event.target.value)}
        >
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {t(`roles.${role}`)}
            </option>
          ))}
        </select>
      </div>
      {draft.kind === 'OIDC' ? (
        <>
          {field('oidcIssuer', 'url')}
          {field('oidcClientId')}
          {field('oidcClientSecret', 'password', editing?.hasClientSecret ? t('enterprise.secretKept') : undefined)}
        </>
      ) : (
        <>
          {field('samlMetadataXml', 'textarea', t('enterprise.metadataHelp'))}
          {field('samlIdpEntityId')}
          {field('samlSsoUrl', 'url')}
          {field('samlCertificate', 'textarea')}
        </>
      )}
      {error && faults.length === 0 && <Alert title={t('errors.title')}>{t('enterprise.errors.generic')}</Alert>}
      <div className="foyer-inline-actions">
        <Button variant="secondary" size="md" onClick={() => onDone(false)}>
          {t('enterprise.cancel')}
        </Button>
        <Button type="submit" size="md" loading={saving}>
          {t('enterprise.save')}
        </Button>
      </div>
    </form>
  );
}

function Registration({ label, value }: { label: string; value: string }) {
  return (
    <div className="foyer-field">
      <span className="foyer-label">{label}</span>
      <code className="foyer-enterprise__value">{value}</code>
    </div>
  );
}

/**
 * The other proof of a domain: a single-use link mailed to one of its role mailboxes (never a
 * personal address, which does not prove the domain), which whoever reads it confirms.
 */
function DomainMailProof({ connectionId, domain }: { connectionId: string; domain: string }) {
  const { t } = useTexts();
  const id = useId();
  const [mailbox, setMailbox] = useState<DomainMailbox>('postmaster');
  const send = useGraphQLMutation(SendEnterpriseDomainMailDocument);
  const refused = send.error instanceof ApiError && send.error.code === 'BAD_USER_INPUT';
  const refusedDomain = claimRefusalOf(send.error, 'domain');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!send.isPending) send.mutate({ id: connectionId, domain, address: `${mailbox}@${domain}` });
  };

  return (
    <form className="foyer-stack" noValidate onSubmit={submit}>
      <div className="foyer-field">
        <label className="foyer-label" htmlFor={`${id}-mailbox`}>
          {t('enterprise.mailAddress', { domain })}
        </label>
        <select
          id={`${id}-mailbox`}
          className="foyer-select"
          value={mailbox}
          aria-invalid={refused ? true : undefined}
          aria-describedby={[`${id}-help`, refused ? `${id}-error` : ''].filter(Boolean).join(' ')}
          onChange={(event) => setMailbox(event.target.value as DomainMailbox)}
        >
          {DOMAIN_MAILBOXES.map((name) => (
            <option key={name} value={name}>
              {`${name}@${domain}`}
            </option>
          ))}
        </select>
        <p id={`${id}-help`} className="foyer-help">
          {t('enterprise.mailboxHelp', { domain })}
        </p>
        {refused && (
          <p id={`${id}-error`} className="foyer-field-error">
            {refusedDomain
              ? t(`enterprise.fieldErrors.${refusedDomain.code}`, { domain })
              : t('enterprise.fieldErrors.address', { domain })}
          </p>
        )}
      </div>
      <div className="foyer-inline-actions">
        <Button type="submit" variant="secondary" size="sm" loading={send.isPending}>
          {t('enterprise.sendMail', { domain })}
        </Button>
      </div>
      {send.isSuccess && (
        <p role="status" className="foyer-muted">
          {t('enterprise.mailSent', { address: send.data.sendEnterpriseDomainMail })}
        </p>
      )}
      {send.isError && !refused && <Alert title={t('errors.title')}>{t('enterprise.errors.mail')}</Alert>}
    </form>
  );
}

function ConnectionCard({ connection, onEdit }: { connection: Connection; onEdit: () => void }) {
  const { t } = useTexts();
  const queryClient = useQueryClient();
  const headingId = useId();
  const verify = useGraphQLMutation(VerifyEnterpriseDomainDocument);
  const remove = useGraphQLMutation(DeleteEnterpriseConnectionDocument);
  const [notFound, setNotFound] = useState<string | null>(null);
  const refusedDomain = claimRefusalOf(verify.error, 'domain');
  const refresh = () => queryClient.invalidateQueries({ queryKey: graphQLQueryKey(EnterpriseConnectionsDocument) });

  const check = (domain: string) => {
    setNotFound(null);
    verify.mutate({ id: connection.id, domain }, { onSuccess: () => void refresh(), onError: () => setNotFound(domain) });
  };

  return (
    <li className="foyer-stack foyer-panel-section" aria-labelledby={headingId}>
      <h3 id={headingId} className="foyer-section-title">
        {connection.name}
        <span className="foyer-badge">{t(`enterprise.kinds.${connection.kind === 'SAML' ? 'SAML' : 'OIDC'}`)}</span>
      </h3>
      <p className="foyer-muted">{t('enterprise.newMembersRole', { role: t(`roles.${connection.defaultRole}`) })}</p>
      {connection.redirectUri && <Registration label={t('enterprise.redirectUri')} value={connection.redirectUri} />}
      {connection.spEntityId && <Registration label={t('enterprise.spEntityId')} value={connection.spEntityId} />}
      {connection.acsUrl && <Registration label={t('enterprise.acsUrl')} value={connection.acsUrl} />}
      <ul className="foyer-plain-list foyer-stack" aria-label={t('enterprise.domainsLabel', { name: connection.name })}>
        {connection.domains.map((entry) => (
          <li key={entry.domain} className="foyer-stack">
            <p className="foyer-enterprise__domain">
              <strong>{entry.domain}</strong>
              <span className="foyer-badge">{t(entry.verified ? 'enterprise.verified' : 'enterprise.unverified')}</span>
            </p>
            {!entry.verified && (
              <>
                <Registration label={t('enterprise.txtRecord', { domain: entry.domain })} value={entry.verificationRecord} />
                <div className="foyer-inline-actions">
                  <Button
                    variant="secondary"
                    size="sm"
                    loading={verify.isPending && verify.variables?.domain === entry.domain}
                    onClick={() => check(entry.domain)}
                  >
                    {t('enterprise.verify', { domain: entry.domain })}
                  </Button>
                </div>
                {notFound === entry.domain && (
                  <Alert variant="warning">
                    {refusedDomain
                      ? t(`enterprise.fieldErrors.${refusedDomain.code}`, { domain: entry.domain })
                      : t('enterprise.notFound', { domain: entry.domain })}
                  </Alert>
                )}
                <DomainMailProof connectionId={connection.id} domain={entry.domain} />
              </>
            )}
          </li>
        ))}
      </ul>
      <div className="foyer-inline-actions">
        <Button variant="secondary" size="sm" onClick={onEdit}>
          {t('enterprise.edit', { name: connection.name })}
        </Button>
        <Button
          variant="danger"
          size="sm"
          loading={remove.isPending}
          onClick={() => remove.mutate({ id: connection.id }, { onSuccess: () => void refresh() })}
        >
          {t('enterprise.remove', { name: connection.name })}
        </Button>
      </div>
      {remove.isError && <Alert title={t('errors.title')}>{t('enterprise.errors.generic')}</Alert>}
    </li>
  );
}

export default function EnterpriseConnections(_props: FlowComponentProps) {
  const { t } = useTexts();
  const titleId = useId();
  const connections = useGraphQL(EnterpriseConnectionsDocument);
  const [editing, setEditing] = useState<Connection | 'new' | null>(null);
  const [saved, setSaved] = useState(false);

  const done = (wasSaved: boolean) => {
    setEditing(null);
    setSaved(wasSaved);
  };

  return (
    <section className="foyer-stack foyer-panel-section foyer-enterprise" aria-labelledby={titleId}>
      <h2 id={titleId} className="foyer-section-title">
        {t('enterprise.title')}
      </h2>
      <p className="foyer-muted">{t('enterprise.intro')}</p>
      {connections.isPending && <p role="status">{t('app.loading')}</p>}
      {connections.isError && <Alert title={t('errors.title')}>{t('enterprise.errors.load')}</Alert>}
      {connections.data && connections.data.enterpriseConnections.length === 0 && editing === null && <p>{t('enterprise.empty')}</p>}
      {connections.data && connections.data.enterpriseConnections.length > 0 && (
        <ul className="foyer-plain-list foyer-stack">
          {connections.data.enterpriseConnections.map((connection) => (
            <ConnectionCard key={connection.id} connection={connection} onEdit={() => setEditing(connection)} />
          ))}
        </ul>
      )}
      {saved && <Alert variant="success">{t('enterprise.saved')}</Alert>}
      {editing === null ? (
        <div className="foyer-inline-actions">
          <Button
            size="md"
            onClick={() => {
              setSaved(false);
              setEditing('new');
            }}
          >
            {t('enterprise.add')}
          </Button>
        </div>
      ) : (
        <ConnectionForm key={editing === 'new' ? 'new' : editing.id} editing={editing === 'new' ? undefined : editing} onDone={done} />
      )}
    </section>
  );
}
