// The one action registry. Flows name actions; only the names in registry-names.ts exist, plus
// gql.<Operation> for every generated GraphQL document.
import type { PaymentMove } from '../../common/api/auth.ts';
import type { ApiClient } from '../api/index.ts';
import type { AuthClient, MfaMethod } from '../auth/types.ts';
import type { TypedDocumentString } from '../gql/graphql.ts';
import type { ClientConfig } from '../config.ts';
import type { ActionRunner } from './engine.ts';
import { GQL_ACTION_PREFIX, isActionName, type ActionName } from './registry-names.ts';
import { required } from '../auth/capabilities.ts';

export interface ActionServices {
  auth: AuthClient;
  api: Pick<ApiClient, 'request' | 'rest'>;
  config: ClientConfig;
  /** Full-page navigation to another origin. */
  assign(url: string): void;
}

type ActionHandler = (input: Record<string, unknown>, services: ActionServices) => unknown;

function text(input: Record<string, unknown>, name: string): string {
  const value = input[name];
  if (typeof value !== 'string' || value === '') throw new Error(`Action input ${name} must be a non-empty string`);
  return value;
}

/** An optional two-factor method named by a flow; anything else is a flow mistake. */
function mfaMethod(value: unknown): MfaMethod | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === 'sms' || value === 'totp') return value;
  throw new Error(`Action input method must be sms or totp, not ${String(value)}`);
}

/**
 * The API host's payment pages read the access token from its cookie (server/payments/routes.ts):
 * POST /security/setCookie hands it over, then the whole page moves there (SPEC.md section 7) with
 * the answer's ticket, without which the page does nothing (another site's link carries none).
 */
async function toPaymentPage(path: string, { api, config, assign }: ActionServices): Promise<void> {
  const { ticket } = await api.rest<PaymentMove>('/security/setCookie', { method: 'POST', credentials: 'include', body: {} });
  assign(`${config.apiUrl.replace(/\/+$/, '')}${path}?${new URLSearchParams({ ticket }).toString()}`);
}

/** Enterprise connections (SAML, OIDC) are addressed by id; social providers by type alone. */
export function federationLoginUrl(authUrl: string, type: string, id?: string): string {
  const base = `${authUrl}/federated/${encodeURIComponent(type)}/login`;
  return (type === 'saml' || type === 'oidc') && id ? `${base}/${encodeURIComponent(id)}` : base;
}

const handlers: Record<ActionName, ActionHandler> = {
  'auth.credentialsConfig': (input, { auth }) => auth.signIn.credentialsConfig(text(input, 'username').trim()),
  'auth.authenticate': (input, { auth }) => auth.signIn.authenticate(text(input, 'username').trim(), text(input, 'password')),
  'auth.tenantUsers': (_input, { auth }) => auth.signIn.tenantUsers(),
  'auth.clear': (_input, { auth }) => auth.clear(),
  'auth.logout': (_input, { auth }) => auth.logout(),
  'nav.handover': (input, { auth }) => auth.signIn.switchWorkspace(text(input, 'tenantUserId')),
  'nav.continue': (_input, { auth }) => auth.signIn.continue(),
  'auth.restartSignIn': (_input, { auth }) => auth.signIn.restart(),
  'nav.login': (input, { auth }) => auth.login(typeof input.returnPath === 'string' ? input.returnPath : undefined),
  'nav.federation': (input, { config, assign }) =>
    assign(federationLoginUrl(config.authUrl, text(input, 'type'), typeof input.id === 'string' ? input.id : undefined)),
  'auth.sendResetLink': (input, { auth }) => auth.password.sendResetLink(text(input, 'username').trim()),
  'auth.passwordToken': (input, { auth }) => auth.password.token(text(input, 'token')),
  'auth.setPassword': (input, { auth }) =>
    auth.password.set(text(input, 'token'), typeof input.password === 'string' && input.password ? input.password : undefined),
  'auth.sendMagicLink': (input, { auth }) => required(auth.magicLink, 'magicLink').send(text(input, 'username').trim()),
  'auth.startMfaUserSetup': (input, { auth }) => auth.mfa.startUserSetup(text(input, 'phoneNumber').trim()),
  'auth.finishMfaUserSetup': (input, { auth }) => auth.mfa.finishUserSetup(text(input, 'mfaCode').trim()),
  'auth.commitMfaCode': (input, { auth }) => auth.mfa.commitCode(text(input, 'mfaCode').trim(), mfaMethod(input.method)),
  'auth.resendMfaCode': (_input, { auth }) => auth.mfa.resendCode(),
  'auth.resetUserMfaSetup': (input, { auth }) => auth.mfa.resetUserSetup(text(input, 'backupCode').trim()),
  'auth.mfaMethods': (_input, { auth }) => auth.mfa.methods(),
  'auth.startTotpSetup': (_input, { auth }) => auth.mfa.startTotpSetup(),
  'auth.finishTotpSetup': (input, { auth }) => auth.mfa.finishTotpSetup(text(input, 'mfaCode').trim()),
  'auth.refresh': (_input, { auth }) => auth.refresh(),
  'nav.checkout': (_input, services) => toPaymentPage('/payments/checkoutView', services),
  'nav.subscriptionPortal': (_input, services) => toPaymentPage('/payments/subscriptionPortal', services),
};

/** The generated documents load with the first gql.<Operation> a flow runs, not with the page. */
async function runOperation(operation: string, input: Record<string, unknown>, api: ActionServices['api']): Promise<unknown> {
  const generatedDocuments = await import('../gql/graphql.ts');
  const document = (generatedDocuments as unknown as Record<string, unknown>)[`${operation}Document`];
  if (!(document instanceof String)) throw new Error(`No generated GraphQL operation ${operation}`);
  return api.request(document as TypedDocumentString<unknown, Record<string, unknown>>, input);
}

export function createActionRunner(services: ActionServices): ActionRunner {
  return async (name, input) => {
    if (isActionName(name)) return handlers[name](input, services);
    if (name.startsWith(GQL_ACTION_PREFIX)) return runOperation(name.slice(GQL_ACTION_PREFIX.length), input, services.api);
    throw new Error(`Unknown action ${name}`);
  };
}
