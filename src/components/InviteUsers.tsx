// The invite form (docs/SPEC.md sections 2, 4, 5): one or more e-mail inputs, '+ Add another', blanks
// dropped before sending. Once createUsers has answered, the notice names who was invited and stays
// 5 seconds; every address the server refused keeps its input and shows why next to it.
import { translateServerMessage } from '../i18n/index.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTexts } from '../i18n/texts.ts';
import { ApiError } from '../http/errors.ts';
import { useGraphQLMutation } from '../api/react.tsx';
import type { FlowComponentProps } from '../flow/component-types.ts';
import { MAX_INVITATIONS_PER_REQUEST } from '../../common/invitations.ts';
import { CreateUsersDocument } from '../gql/graphql.ts';
import { Alert } from '../theme/Alert.tsx';
import { Button } from '../theme/Button.tsx';

export const INVITE_NOTICE_MS = 5000;

const KNOWN_REASONS = ['INVALID_EMAIL', 'ALREADY_MEMBER', 'MAIL_NOT_SENT'];

/** The form-level message of a refused invitation that names no address (users.invite.errors.*). */
export function inviteFailureKey(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'TOO_MANY_REQUESTS') return 'users.invite.errors.TOO_MANY_REQUESTS';
    if (error.code === 'FORBIDDEN') return 'users.invite.errors.FORBIDDEN';
    if (error.code === 'BAD_USER_INPUT') return 'users.invite.errors.tooMany';
  }
  return 'users.invite.errors.generic';
}

export interface InviteOutcome {
  invited: string[];
  /** Translation key (or the server's text) by trimmed address, lower case. */
  failures: Record<string, string>;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/**
 * What a refused createUsers said per address: extensions.reasons {address: code} (known codes become
 * translation keys), extensions.fields {address: message} for the rest, extensions.invited [{email}]
 * for those invited all the same. Undefined when the error is not about addresses.
 */
export function inviteOutcomeOf(error: unknown): InviteOutcome | undefined {
  if (!(error instanceof ApiError) || error.code !== 'BAD_USER_INPUT' || !Array.isArray(error.details)) return undefined;
  const extensions = record(record(error.details[0]).extensions);
  const reasons = record(extensions.reasons);
  const fields = record(extensions.fields);
  const failures: Record<string, string> = {};
  for (const [address, message] of Object.entries(fields)) {
    if (address === 'userNames') continue;
    const reason = reasons[address];
    failures[address.toLowerCase()] =
      typeof reason === 'string' && KNOWN_REASONS.includes(reason) ? `users.invite.errors.${reason}` : String(message);
  }
  if (Object.keys(failures).length === 0) return undefined;
  const invited = Array.isArray(extensions.invited)
    ? extensions.invited.map((entry) => record(entry).email).filter((email): email is string => typeof email === 'string')
    : [];
  return { invited, failures };
}

interface Entry {
  key: number;
  address: string;
  /** A translation key or the server's own text. */
  error?: string;
}

export default function InviteUsers(_props: FlowComponentProps) {
  const { t, texts } = useTexts();
  const queryClient = useQueryClient();
  const formId = useId();
  const nextKey = useRef(1);
  const [entries, setEntries] = useState<Entry[]>([{ key: 0, address: '' }]);
  const [notice, setNotice] = useState<string[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const focusKey = useRef<number | null>(null);
  const inputs = useRef(new Map<number, HTMLInputElement>());
  const invite = useGraphQLMutation(CreateUsersDocument);

  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), INVITE_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  useEffect(() => {
    if (focusKey.current === null) return;
    inputs.current.get(focusKey.current)?.focus();
    focusKey.current = null;
  });

  const addresses = entries.map((entry) => entry.address.trim()).filter(Boolean);

  const change = (key: number, address: string) =>
    setEntries((current) => current.map((entry) => (entry.key === key ? { key, address } : entry)));

  const addAnother = () => {
    const key = nextKey.current++;
    focusKey.current = key;
    setEntries((current) => [...current, { key, address: '' }]);
  };

  const settle = (invited: string[], failures: Record<string, string>) => {
    const kept = entries
      .filter((entry) => entry.address.trim() && failures[entry.address.trim().toLowerCase()])
      .map((entry) => ({ ...entry, error: failures[entry.address.trim().toLowerCase()] }));
    const next = kept.length ? kept : [{ key: nextKey.current++, address: '' }];
    focusKey.current = next[0]!.key;
    setEntries(next);
    setNotice(invited.length ? invited : null);
    void queryClient.invalidateQueries({ queryKey: ['ListUsers'] });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (addresses.length === 0 || invite.isPending) return;
    setNotice(null);
    setFailure(null);
    invite.mutate(
      { userNames: addresses },
      {
        onSuccess: (data) => settle(data.createUsers.map((user) => user.email ?? '').filter(Boolean), {}),
        onError: (error) => {
          const outcome = inviteOutcomeOf(error);
          if (outcome) settle(outcome.invited, outcome.failures);
          else setFailure(inviteFailureKey(error));
        },
      },
    );
  };

  const message = (text: string) => translateServerMessage(texts, text);

  return (
    <section className="foyer-stack foyer-panel-section" aria-labelledby={`${formId}-title`}>
      <h2 id={`${formId}-title`} className="foyer-section-title">
        {t('users.invite.title')}
      </h2>
      <form className="foyer-stack" noValidate onSubmit={submit}>
        {entries.map((entry, index) => {
          const id = `${formId}-${entry.key}`;
          return (
            <div key={entry.key} className="foyer-field">
              <label className="foyer-label" htmlFor={id}>
                {t('users.invite.emailLabel', { number: index + 1 })}
              </label>
              <input
                ref={(element) => {
                  if (element) inputs.current.set(entry.key, element);
                  else inputs.current.delete(entry.key);
                }}
                id={id}
                type="email"
                autoComplete="off"
                className="foyer-input"
                value={entry.address}
                aria-invalid={entry.error ? true : undefined}
                aria-describedby={entry.error ? `${id}-error` : undefined}
                onChange={(event) => change(entry.key, event.target.value)}
              />
              {entry.error && (
                <p id={`${id}-error`} className="foyer-field-error">
                  {message(entry.error)}
                </p>
              )}
            </div>
          );
        })}
        {entries.length >= MAX_INVITATIONS_PER_REQUEST && (
          <p className="foyer-help">{t('users.invite.limit', { count: MAX_INVITATIONS_PER_REQUEST })}</p>
        )}
        <div className="foyer-inline-actions">
          {entries.length < MAX_INVITATIONS_PER_REQUEST && (
            <Button variant="link" size="md" onClick={addAnother}>
              {t('users.invite.addAnother')}
            </Button>
          )}
          <Button type="submit" size="md" loading={invite.isPending} disabled={!invite.isPending && addresses.length === 0}>
            {t('users.invite.submit')}
          </Button>
        </div>
      </form>
      {failure && <Alert title={t('errors.title')}>{t(failure, { count: MAX_INVITATIONS_PER_REQUEST })}</Alert>}
      {notice && (
        <Alert variant="success" title={t('users.invite.sentTitle')}>
          {t('users.invite.sentMessage', { list: notice.join(', ') })}
        </Alert>
      )}
    </section>
  );
}
