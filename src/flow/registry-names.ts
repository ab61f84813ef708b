// The names flows may use, kept free of React and browser code so that `npm run flows:check` can read
// them in Node. src/flow/actions.ts and src/components/registry.ts implement exactly these names.

export const ACTION_NAMES = [
  'auth.credentialsConfig',
  'auth.authenticate',
  'auth.tenantUsers',
  'auth.clear',
  'auth.logout',
  'nav.handover',
  'nav.login',
  'nav.federation',
  'nav.continue',
  'auth.restartSignIn',
  'auth.sendResetLink',
  'auth.passwordToken',
  'auth.setPassword',
  'auth.sendMagicLink',
  'auth.startMfaUserSetup',
  'auth.finishMfaUserSetup',
  'auth.commitMfaCode',
  'auth.resendMfaCode',
  'auth.resetUserMfaSetup',
  'auth.mfaMethods',
  'auth.startTotpSetup',
  'auth.finishTotpSetup',
  'auth.refresh',
  'nav.checkout',
  'nav.subscriptionPortal',
] as const;

export type ActionName = (typeof ACTION_NAMES)[number];

/** The input names an action reads: those it cannot run without, and those it may take. */
export interface ActionInput {
  required: readonly string[];
  optional: readonly string[];
}

const takes = (required: readonly string[] = [], optional: readonly string[] = []): ActionInput => ({ required, optional });

/**
 * Each action's declared input, which `npm run flows:check` checks flows' `input` against (for an
 * action step or a `redirect` goto); src/flow/actions.ts reads exactly these names.
 */
export const ACTION_INPUTS: Record<ActionName, ActionInput> = {
  'auth.credentialsConfig': takes(['username']),
  'auth.authenticate': takes(['username', 'password']),
  'auth.tenantUsers': takes(),
  'auth.clear': takes(),
  'auth.logout': takes(),
  'nav.handover': takes(['tenantUserId']),
  'nav.login': takes([], ['returnPath']),
  'nav.federation': takes(['type'], ['id']),
  'nav.continue': takes(),
  'auth.restartSignIn': takes(),
  'auth.sendResetLink': takes(['username']),
  'auth.passwordToken': takes(['token']),
  'auth.setPassword': takes(['token'], ['password']),
  'auth.sendMagicLink': takes(['username']),
  'auth.startMfaUserSetup': takes(['phoneNumber']),
  'auth.finishMfaUserSetup': takes(['mfaCode']),
  'auth.commitMfaCode': takes(['mfaCode'], ['method']),
  'auth.resendMfaCode': takes(),
  'auth.resetUserMfaSetup': takes(['backupCode']),
  'auth.mfaMethods': takes(),
  'auth.startTotpSetup': takes(),
  'auth.finishTotpSetup': takes(['mfaCode']),
  'auth.refresh': takes(),
  'nav.checkout': takes(),
  'nav.subscriptionPortal': takes(),
};

/** `gql.<OperationName>` runs the generated document of that operation (src/graphql/*.graphql). */
export const GQL_ACTION_PREFIX = 'gql.';

/** The action each named redirect target runs. */
export const REDIRECT_ACTIONS = {
  handover: 'nav.handover',
  login: 'nav.login',
  logout: 'auth.logout',
  federation: 'nav.federation',
  continue: 'nav.continue',
  checkout: 'nav.checkout',
  subscriptionPortal: 'nav.subscriptionPortal',
} as const satisfies Record<string, ActionName>;

export type RedirectName = keyof typeof REDIRECT_ACTIONS;

export const COMPONENT_NAMES = [
  'ActivityList',
  'EnterpriseConnections',
  'FederationConnections',
  'InviteUsers',
  'PlanCards',
  'PasskeyManager',
  'PasskeyRegistration',
  'PasskeySignIn',
  'PasswordPolicy',
  'RecoveryCodeActions',
  'SessionList',
  'SocialButtons',
  'TotpSecret',
  'TwoFactorToggle',
  'UsersTable',
  'WorkspaceLog',
  'WorkspaceLogo',
  'WorkspacePicker',
] as const;

export type ComponentName = (typeof COMPONENT_NAMES)[number];

/**
 * Foyer's own RJSF fields and widgets a form's uiSchema may name (`ui:field`, `ui:widget`), next to
 * RJSF's built-in widgets (src/theme/rjsf implements exactly these).
 */
export const FORM_FIELD_NAMES = ['CustomParams'] as const;
export const FORM_WIDGET_NAMES = ['consent'] as const;

export type FormFieldName = (typeof FORM_FIELD_NAMES)[number];
export type FormWidgetName = (typeof FORM_WIDGET_NAMES)[number];

export function isActionName(name: string): name is ActionName {
  return (ACTION_NAMES as readonly string[]).includes(name);
}

export function isComponentName(name: string): name is ComponentName {
  return (COMPONENT_NAMES as readonly string[]).includes(name);
}
