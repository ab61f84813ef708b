// Passkey ceremonies in the browser with @simplewebauthn/browser. One runs at a time: the library's
// WebAuthnAbortService aborts the running one whenever a new one starts. Failures are logged with the
// library's code, and each one a person can act on comes with a message key to show.
import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
  WebAuthnError,
  type WebAuthnErrorCode,
} from '@simplewebauthn/browser';
import type { AuthenticateResult, PasskeyCalls, PasskeyRegistrant } from '../auth/types.ts';

/** The log entry for each error code the browser library reports. */
export const PASSKEY_ERROR_LOG: Record<WebAuthnErrorCode, string> = {
  ERROR_CEREMONY_ABORTED: 'Passkey ceremony aborted: a newer one started or the screen closed',
  ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT: 'The authenticator cannot store discoverable credentials (passkeys)',
  ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT: 'The authenticator cannot verify the user',
  ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED: 'This authenticator already holds a passkey for the account',
  ERROR_MALFORMED_PUBKEYCREDPARAMS: 'The server offered malformed public key parameters',
  ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEYCREDPARAMS_ALG: 'The authenticator supports none of the offered algorithms',
  ERROR_INVALID_DOMAIN: 'Passkeys need localhost or a valid domain name',
  ERROR_INVALID_RP_ID: 'The relying party id does not match this host',
  ERROR_INVALID_USER_ID_LENGTH: 'The user id must be 1 to 64 bytes',
  ERROR_AUTHENTICATOR_GENERAL_ERROR: 'The authenticator failed',
  ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY: 'The passkey ceremony failed; see its cause',
  ERROR_AUTO_REGISTER_USER_VERIFICATION_FAILURE: 'Automatic passkey registration could not verify the user',
  ERROR_SIGNAL_INVALID_ARGUMENT: 'A passkey signal had an invalid argument',
};

export type PasskeyLogger = Pick<Console, 'info' | 'warn'>;

export type CeremonyOutcome<T> =
  | { ok: true; value: T }
  /** A newer ceremony took over, or the screen closed: nothing to tell. */
  | { ok: false; aborted: true }
  /** `problem`: the translation key of what the person is told (passkeys.problems.*, or the unsupported browser). */
  | { ok: false; aborted: false; problem: string };

/** What a person is told for each library error code they can act on; the rest read as `generic`. */
const PROBLEM_OF: Partial<Record<WebAuthnErrorCode, string>> = {
  ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED: 'passkeys.problems.previouslyRegistered',
  ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT: 'passkeys.problems.authenticator',
  ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT: 'passkeys.problems.authenticator',
  ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEYCREDPARAMS_ALG: 'passkeys.problems.authenticator',
  ERROR_INVALID_DOMAIN: 'passkeys.problems.address',
  ERROR_INVALID_RP_ID: 'passkeys.problems.address',
};

const UNSUPPORTED = { ok: false, aborted: false, problem: 'passkeys.unsupported' } as const;

/** Logs a failed ceremony (the library's code, or `notCompleted`) and answers what to tell the person. */
function failure<T>(error: unknown, notCompleted: string, logger: PasskeyLogger): CeremonyOutcome<T> {
  if (error instanceof WebAuthnError) {
    const aborted = error.code === 'ERROR_CEREMONY_ABORTED';
    (aborted ? logger.info : logger.warn)(`[passkeys] ${error.code}: ${PASSKEY_ERROR_LOG[error.code]}`, error.cause ?? error);
    if (aborted) return { ok: false, aborted: true };
    // The browser's NotAllowedError: the person closed its dialog, let it time out, or had no passkey to offer.
    const cancelled =
      error.code === 'ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY' && (error.cause as Error | undefined)?.name === 'NotAllowedError';
    const problem = cancelled ? 'passkeys.problems.cancelled' : (PROBLEM_OF[error.code] ?? 'passkeys.problems.generic');
    return { ok: false, aborted: false, problem };
  }
  // The server refused the passkey (deleted, another app's) or the network failed.
  logger.warn(`[passkeys] ${notCompleted}`, error);
  return { ok: false, aborted: false, problem: 'passkeys.problems.refused' };
}

export interface SignInOptions {
  /** A conditional request: the browser offers passkeys in the autofill of the e-mail field. */
  autofill: boolean;
  /** Logged when the ceremony fails for any reason but a library error code. */
  notCompleted: string;
  logger?: PasskeyLogger;
  /** Gives up before the browser's ceremony starts (a newer one is about to start instead). */
  signal?: AbortSignal;
}

export function passkeysSupported(): boolean {
  return browserSupportsWebAuthn();
}

/**
 * Autofill needs browser support and an input whose autocomplete ends in webauthn (the login's
 * e-mail field).
 */
export async function autofillAvailable(): Promise<boolean> {
  return (
    browserSupportsWebAuthn() &&
    document.querySelector("input[autocomplete$='webauthn']") !== null &&
    (await browserSupportsWebAuthnAutofill())
  );
}

/** Options from the server, the browser's ceremony, the answer verified: signed in like a password login. */
export async function signInWithPasskey(passkeys: PasskeyCalls, options: SignInOptions): Promise<CeremonyOutcome<AuthenticateResult>> {
  const logger = options.logger ?? console;
  if (!browserSupportsWebAuthn()) return UNSUPPORTED;
  try {
    const optionsJSON = await passkeys.authenticationOptions();
    if (options.signal?.aborted) return { ok: false, aborted: true };
    logger.info(`[passkeys] ${options.autofill ? 'conditional (autofill)' : 'modal'} sign-in waits for the authenticator`);
    const response = await startAuthentication({ optionsJSON, useBrowserAutofill: options.autofill });
    const result = await passkeys.verifyAuthentication(response);
    if (!result.session) return failure(new Error('The server did not accept the passkey'), options.notCompleted, logger);
    return { ok: true, value: result };
  } catch (error) {
    return failure(error, options.notCompleted, logger);
  }
}

export async function registerPasskey(
  passkeys: PasskeyCalls,
  registrant: PasskeyRegistrant,
  options: { notCompleted: string; logger?: PasskeyLogger },
): Promise<CeremonyOutcome<true>> {
  const logger = options.logger ?? console;
  if (!browserSupportsWebAuthn()) return UNSUPPORTED;
  try {
    const optionsJSON = await passkeys.registrationOptions(registrant);
    const response = await startRegistration({ optionsJSON });
    const { verified } = await passkeys.verifyRegistration(registrant, response);
    if (!verified) return failure(new Error('The server did not accept the passkey'), options.notCompleted, logger);
    return { ok: true, value: true };
  } catch (error) {
    return failure(error, options.notCompleted, logger);
  }
}

/** Ends whatever ceremony runs (the screen that started it closes). */
export function cancelCeremony(): void {
  WebAuthnAbortService.cancelCeremony();
}
