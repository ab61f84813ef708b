// What a hosted handover (/handover/*, SPEC.md section 2) does: read `flow` and `args` (base64 of
// the JSON docs/handover.md documents for app builders) and decide whether to sign out, whether to
// exchange a handover code for a session, and where to go. `entryPoint` is honoured only as a path of
// this origin, so a handover link can never send the person elsewhere.

export interface HandoverArgs {
  code?: string;
  redirectUri?: string;
  entryPoint?: string;
  errorDetails?: { type?: string; federation?: string };
  signupOptions?: { plan?: string; currency?: string; recurrenceInterval?: string };
}

export interface HandoverPlan {
  /** Drop the session held in this browser first. */
  signOut: boolean;
  /** Exchange args.code for a session of the person the app handed over (SPEC: error without one). */
  exchangeCode?: string | null;
  /** A path of this origin. */
  target: string;
}

const USER_MANAGEMENT_TARGETS: Record<string, string> = {
  'user-management-portal': '/user-management',
  'user-management-users': '/user-management/users',
  'user-management-workspace': '/user-management/workspace',
  'user-management-profile': '/user-management/profile',
};

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** base64 (standard or URL-safe) of UTF-8 JSON; anything else reads as no arguments. */
export function parseHandoverArgs(encoded: string | null): HandoverArgs {
  if (!encoded) return {};
  try {
    const binary = atob(encoded.replace(/-/g, '+').replace(/_/g, '/'));
    const parsed: unknown = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0))));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as HandoverArgs) : {};
  } catch {
    return {};
  }
}

/** The entry point as a path of `origin` (path, query and hash), or undefined for anything else. */
export function sameOriginPath(entryPoint: unknown, origin: string): string | undefined {
  const value = text(entryPoint);
  // Only a path: not //host, not /\host (browsers read a backslash as a slash), not a scheme.
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return undefined;
  try {
    const url = new URL(value, origin);
    return url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : undefined;
  } catch {
    return undefined;
  }
}

function withQuery(path: string, query: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  return params.size > 0 ? `${path}?${params.toString()}` : path;
}

export function planHandover(flow: string | null, args: HandoverArgs, origin: string): HandoverPlan {
  const entryPoint = sameOriginPath(args.entryPoint, origin);
  switch (flow) {
    case 'openidconnect': {
      const error = args.errorDetails && typeof args.errorDetails === 'object' ? args.errorDetails : undefined;
      if (error?.type === 'FEDERATION_MISSING_USER') {
        const federation = text(error.federation);
        return { signOut: true, target: federation ? withQuery('/auth/signup', { error: 'missing_user', federation }) : '/auth/login' };
      }
      if (error?.type === 'MAGIC_LINK_EXPIRED') return { signOut: true, target: '/auth/login?error=true&details=mle' };
      if (error?.type) return { signOut: true, target: '/auth/login?error=true' };
      return { signOut: true, target: entryPoint ?? '/auth/login' };
    }
    case 'openidconnect_signup': {
      const options = args.signupOptions && typeof args.signupOptions === 'object' ? args.signupOptions : {};
      return {
        signOut: true,
        target:
          entryPoint ??
          withQuery('/auth/signup', {
            plan: text(options.plan),
            currency: text(options.currency),
            recurrenceInterval: text(options.recurrenceInterval),
          }),
      };
    }
    case 'ms-azure-marketplace-landing-page':
      return { signOut: true, target: '/ms-marketplace-landing' };
    case 'select-plan':
      return { signOut: false, exchangeCode: text(args.code) ?? null, target: '/tenant/plan' };
    default: {
      const userManagement = flow ? USER_MANAGEMENT_TARGETS[flow] : undefined;
      if (userManagement) return { signOut: false, exchangeCode: text(args.code) ?? null, target: userManagement };
      return { signOut: false, target: entryPoint ?? '/' };
    }
  }
}
