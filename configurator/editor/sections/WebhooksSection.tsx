// Webhooks: the app's endpoints (URL, description, the events each takes, on or paused), each with its
// signing secret (revealed on request, rotated after confirmation), a delivery log (status, attempts,
// response code and time, with Resend) and deletion after confirmation (server/webhooks/,
// docs/webhooks.md). The server checks every field (and the SSRF rule); the form names the refused ones.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../src/theme/Alert.tsx';
import { Button } from '../../../src/theme/Button.tsx';
import { ConfirmDialog } from '../../../src/theme/Dialog.tsx';
import { ApiError } from '../../../src/http/errors.ts';
import { isWebhookEventType, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../../common/webhooks.ts';
import type { WebhookEndpoint, WebhookEndpointInput } from '../../api/types.ts';
import { CopyField } from '../../components/CopyField.tsx';
import { TextField } from '../../components/TextField.tsx';
import { errorText } from '../../components/errors.ts';
import { useConsole } from '../../session.tsx';
import { useEditor } from '../context.ts';
import { webhookDeliveriesQueryKey, webhooksQueryKey } from '../query-keys.ts';
import { SectionHeading } from './SectionHeading.tsx';
import { formatTime } from './VersionsSection.tsx';

const DESCRIPTION_MAX_LENGTH = 200;
const URL_MAX_LENGTH = 2000;

type FieldErrors = Partial<Record<'url' | 'description' | 'eventTypes', string>>;

/** The refused fields of a failed save, in the console's words. */
function fieldErrorsOf(t: (key: string) => string, error: unknown): FieldErrors {
  if (!(error instanceof ApiError)) return {};
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    if (issue.path === '/url') errors.url = t('webhooks.errors.url');
    if (issue.path === '/description') errors.description = t('webhooks.errors.description');
    if (issue.path === '/eventTypes') errors.eventTypes = t('webhooks.errors.eventTypes');
  }
  return errors;
}

export function WebhooksSection() {
  const { t } = useTranslation();
  const { api } = useConsole();
  const { appId } = useEditor();
  const [adding, setAdding] = useState(false);
  const endpoints = useQuery({ queryKey: webhooksQueryKey(appId), queryFn: () => api.webhooks(appId) });

  return (
    <div className="foyer-stack">
      <SectionHeading label="webhooks.title" intro="webhooks.intro" />
      {endpoints.isPending && <p role="status">{t('webhooks.loading')}</p>}
      {endpoints.isError && (
        <Alert variant="danger" title={t('errors.title')}>
          {errorText(t, endpoints.error, 'webhooks.loadFailed')}
        </Alert>
      )}
      {endpoints.data && endpoints.data.endpoints.length === 0 && !adding && <p>{t('webhooks.empty')}</p>}
      {endpoints.data && endpoints.data.endpoints.length > 0 && (
        <ul className="foyer-plain-list foyer-stack">
          {endpoints.data.endpoints.map((endpoint) => (
            <EndpointItem key={endpoint.id} endpoint={endpoint} />
          ))}
        </ul>
      )}
      {adding ? (
        <EndpointForm
          title={t('webhooks.newTitle')}
          initial={{ url: '', description: '', eventTypes: [...WEBHOOK_EVENT_TYPES], enabled: true }}
          save={(input) => api.createWebhook(appId, input)}
          onDone={() => setAdding(false)}
        />
      ) : (
        endpoints.data && (
          <Button variant="secondary" size="md" className="console__inline-button" onClick={() => setAdding(true)}>
            {t('webhooks.add')}
          </Button>
        )
      )}
    </div>
  );
}

function EndpointForm({
  title,
  initial,
  save,
  onDone,
}: {
  title: string;
  initial: WebhookEndpointInput;
  save(input: WebhookEndpointInput): Promise<unknown>;
  onDone(): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const { appId } = useEditor();
  const queryClient = useQueryClient();
  const [input, setInput] = useState(initial);
  const [eventTypesMissing, setEventTypesMissing] = useState(false);
  const saving = useMutation({
    mutationFn: save,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: webhooksQueryKey(appId) });
      onDone();
    },
  });
  const fields = fieldErrorsOf(t, saving.error);
  const eventTypesError = eventTypesMissing ? t('webhooks.errors.eventTypes') : fields.eventTypes;
  const otherFailure = saving.isError && Object.keys(fields).length === 0 ? errorText(t, saving.error, 'webhooks.saveFailed') : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // A comfort check: the server refuses an endpoint without events all the same.
    if (input.eventTypes.length === 0) {
      setEventTypesMissing(true);
      return;
    }
    saving.mutate({ ...input, url: input.url.trim(), description: input.description.trim() });
  };
  const toggle = (type: WebhookEventType, on: boolean) => {
    setEventTypesMissing(false);
    setInput((current) => ({
      ...current,
      eventTypes: on ? [...current.eventTypes, type] : current.eventTypes.filter((chosen) => chosen !== type),
    }));
  };

  return (
    <form className="console-fieldset" onSubmit={submit} aria-labelledby={`${id}-title`} noValidate>
      <h3 id={`${id}-title`} className="foyer-section-title">
        {title}
      </h3>
      <TextField
        label={t('webhooks.url')}
        type="url"
        inputMode="url"
        required
        value={input.url}
        maxLength={URL_MAX_LENGTH}
        placeholder="https://api.example.com/foyer-events"
        help={t('webhooks.urlHelp')}
        error={fields.url}
        onChange={(url) => setInput((current) => ({ ...current, url }))}
      />
      <TextField
        label={t('webhooks.description')}
        value={input.description}
        maxLength={DESCRIPTION_MAX_LENGTH}
        help={t('webhooks.descriptionHelp')}
        error={fields.description}
        onChange={(description) => setInput((current) => ({ ...current, description }))}
      />
      <fieldset className="console-fieldset" aria-describedby={eventTypesError ? `${id}-events-error` : undefined}>
        <legend className="foyer-label">{t('webhooks.eventTypes')}</legend>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <label key={type} className="foyer-checkbox">
            <input type="checkbox" checked={input.eventTypes.includes(type)} onChange={(event) => toggle(type, event.target.checked)} />
            <span className="console-webhook__event">
              {t(`webhooks.events.${type}`)} <code className="console__mono">{type}</code>
            </span>
          </label>
        ))}
        {eventTypesError && (
          <p id={`${id}-events-error`} className="foyer-field-error">
            {eventTypesError}
          </p>
        )}
      </fieldset>
      <label className="foyer-checkbox">
        <input
          type="checkbox"
          checked={input.enabled}
          onChange={(event) => setInput((current) => ({ ...current, enabled: event.target.checked }))}
        />
        {t('webhooks.enabled')}
      </label>
      {otherFailure && (
        <Alert variant="danger" title={t('errors.title')}>
          {otherFailure}
        </Alert>
      )}
      <div className="foyer-inline-actions">
        <Button type="submit" variant="primary" size="md" loading={saving.isPending}>
          {t('webhooks.save')}
        </Button>
        <Button variant="secondary" size="md" onClick={onDone} disabled={saving.isPending}>
          {t('actions.cancel')}
        </Button>
      </div>
    </form>
  );
}

function EndpointItem({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t } = useTranslation();
  const id = useId();
  const { api } = useConsole();
  const { appId } = useEditor();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const remove = useMutation({
    mutationFn: () => api.deleteWebhook(appId, endpoint.id),
    onSuccess: async () => {
      setDeleting(false);
      await queryClient.invalidateQueries({ queryKey: webhooksQueryKey(appId) });
    },
  });
  const name = endpoint.description || endpoint.url;

  if (editing) {
    return (
      <li>
        <EndpointForm
          title={t('webhooks.editTitle', { name })}
          initial={{
            url: endpoint.url,
            description: endpoint.description,
            eventTypes: endpoint.eventTypes.filter(isWebhookEventType),
            enabled: endpoint.enabled,
          }}
          save={(input) => api.updateWebhook(appId, endpoint.id, input)}
          onDone={() => setEditing(false)}
        />
      </li>
    );
  }
  return (
    <li>
      <section className="console-fieldset" aria-labelledby={`${id}-name`}>
        <h3 id={`${id}-name`} className="foyer-section-title console-webhook__name">
          {name}
          <span className="foyer-badge">{endpoint.enabled ? t('webhooks.active') : t('webhooks.paused')}</span>
        </h3>
        {endpoint.description && <p className="console__mono console-webhook__url">{endpoint.url}</p>}
        <p>{t('webhooks.sends', { events: endpoint.eventTypes.map((type) => t(`webhooks.events.${type}`)).join(', ') })}</p>
        <EndpointSecret endpointId={endpoint.id} name={name} />
        <div className="foyer-inline-actions">
          <Button variant="secondary" size="md" onClick={() => setEditing(true)} aria-label={t('webhooks.editLabel', { name })}>
            {t('webhooks.edit')}
          </Button>
          <Button
            variant="secondary"
            size="md"
            aria-expanded={showLog}
            aria-controls={`${id}-log`}
            onClick={() => setShowLog((shown) => !shown)}
          >
            {showLog ? t('webhooks.hideDeliveries') : t('webhooks.showDeliveries')}
          </Button>
          <Button variant="danger" size="md" onClick={() => setDeleting(true)} aria-label={t('webhooks.deleteLabel', { name })}>
            {t('webhooks.delete')}
          </Button>
        </div>
        <div id={`${id}-log`} hidden={!showLog}>
          {showLog && <DeliveryLog endpointId={endpoint.id} />}
        </div>
      </section>
      {deleting && (
        <ConfirmDialog
          title={t('webhooks.deleteTitle')}
          message={t('webhooks.deleteMessage', { url: endpoint.url })}
          confirmLabel={t('webhooks.deleteConfirm')}
          cancelLabel={t('actions.cancel')}
          danger
          busy={remove.isPending}
          error={remove.isError ? errorText(t, remove.error, 'webhooks.deleteFailed') : undefined}
          onConfirm={() => remove.mutate()}
          onCancel={() => setDeleting(false)}
        />
      )}
    </li>
  );
}

function EndpointSecret({ endpointId, name }: { endpointId: string; name: string }) {
  const { t } = useTranslation();
  const { api } = useConsole();
  const { appId } = useEditor();
  const [secret, setSecret] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const reveal = useMutation({
    mutationFn: () => api.webhookSecret(appId, endpointId),
    onSuccess: ({ secret: value }) => setSecret(value),
  });
  const rotate = useMutation({
    mutationFn: () => api.rotateWebhookSecret(appId, endpointId),
    onSuccess: ({ secret: value }) => {
      setConfirming(false);
      setSecret(value);
    },
  });
  const failure = reveal.isError ? errorText(t, reveal.error, 'webhooks.secretFailed') : undefined;
  return (
    <div className="foyer-stack">
      {secret && <CopyField label={t('webhooks.secret')} value={secret} />}
      <div className="foyer-inline-actions">
        <Button
          variant="secondary"
          size="md"
          loading={reveal.isPending}
          aria-label={secret ? t('webhooks.hideSecretLabel', { name }) : t('webhooks.revealSecretLabel', { name })}
          onClick={() => (secret ? setSecret(null) : reveal.mutate())}
        >
          {secret ? t('webhooks.hideSecret') : t('webhooks.revealSecret')}
        </Button>
        <Button variant="secondary" size="md" onClick={() => setConfirming(true)} aria-label={t('webhooks.rotateSecretLabel', { name })}>
          {t('webhooks.rotateSecret')}
        </Button>
      </div>
      {failure && (
        <Alert variant="danger" title={t('errors.title')}>
          {failure}
        </Alert>
      )}
      {confirming && (
        <ConfirmDialog
          title={t('webhooks.rotateTitle')}
          message={t('webhooks.rotateMessage')}
          confirmLabel={t('webhooks.rotateConfirm')}
          cancelLabel={t('actions.cancel')}
          danger
          busy={rotate.isPending}
          error={rotate.isError ? errorText(t, rotate.error, 'webhooks.secretFailed') : undefined}
          onConfirm={() => rotate.mutate()}
          onCancel={() => setConfirming(false)}
        />
      )}
    </div>
  );
}

function DeliveryLog({ endpointId }: { endpointId: string }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const { api } = useConsole();
  const { appId } = useEditor();
  const queryClient = useQueryClient();
  const queryKey = webhookDeliveriesQueryKey(appId, endpointId);
  const log = useQuery({ queryKey, queryFn: () => api.webhookDeliveries(appId, endpointId) });
  const resend = useMutation({
    mutationFn: (deliveryId: string) => api.resendWebhookDelivery(appId, endpointId, deliveryId),
    onSettled: () => queryClient.invalidateQueries({ queryKey }),
  });
  const deliveries = log.data?.deliveries ?? [];
  return (
    <div className="foyer-stack">
      <div className="foyer-inline-actions">
        <h4 id={`${id}-caption`} className="foyer-label">
          {t('webhooks.deliveries')}
        </h4>
        <Button variant="secondary" size="sm" loading={log.isFetching && !log.isPending} onClick={() => void log.refetch()}>
          {t('webhooks.refresh')}
        </Button>
      </div>
      {log.isError && (
        <Alert variant="danger" title={t('errors.title')}>
          {errorText(t, log.error, 'webhooks.deliveriesFailed')}
        </Alert>
      )}
      {resend.isError && (
        <Alert variant="danger" title={t('errors.title')}>
          {errorText(t, resend.error, 'webhooks.resendFailed')}
        </Alert>
      )}
      <p className="foyer-help" role="status">
        {resend.isSuccess ? t('webhooks.resent') : ''}
      </p>
      <div className="foyer-table-wrap" role="region" aria-labelledby={`${id}-caption`} tabIndex={0}>
        <table className="foyer-table" aria-busy={log.isFetching || undefined}>
          <thead>
            <tr>
              <th scope="col">{t('webhooks.columns.when')}</th>
              <th scope="col">{t('webhooks.columns.event')}</th>
              <th scope="col">{t('webhooks.columns.status')}</th>
              <th scope="col">{t('webhooks.columns.attempts')}</th>
              <th scope="col">{t('webhooks.columns.response')}</th>
              <th scope="col">{t('webhooks.columns.time')}</th>
              <th scope="col">{t('webhooks.columns.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {log.isPending ? (
              <tr>
                <td colSpan={7} role="status">
                  {t('webhooks.deliveriesLoading')}
                </td>
              </tr>
            ) : deliveries.length === 0 && !log.isError ? (
              <tr>
                <td colSpan={7}>{t('webhooks.deliveriesEmpty')}</td>
              </tr>
            ) : (
              deliveries.map((delivery) => {
                const when = formatTime(delivery.createdAt, i18n.language);
                return (
                  <tr key={delivery.id}>
                    <td>
                      <time dateTime={delivery.createdAt}>{when}</time>
                    </td>
                    <td>{t(`webhooks.events.${delivery.eventType}`, { defaultValue: delivery.eventType })}</td>
                    <td>{t(`webhooks.status.${delivery.status}`)}</td>
                    <td>{delivery.attempts}</td>
                    <td>{delivery.responseCode ?? (delivery.error ? t('webhooks.noResponse') : '')}</td>
                    <td>{delivery.durationMs === null ? '' : t('webhooks.duration', { value: delivery.durationMs })}</td>
                    <td>
                      <Button
                        variant="secondary"
                        size="sm"
                        loading={resend.isPending && resend.variables === delivery.id}
                        aria-label={t('webhooks.resendLabel', {
                          event: t(`webhooks.events.${delivery.eventType}`, { defaultValue: delivery.eventType }),
                          time: when,
                        })}
                        onClick={() => resend.mutate(delivery.id)}
                      >
                        {t('webhooks.resend')}
                      </Button>
                    </td>
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}
