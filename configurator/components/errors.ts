// How a failed admin call reads on screen: the translated text for the server's machine code when
// the console knows it, else the given fallback key. A failure without an answer reads as NETWORK.
import type { TFunction } from 'i18next';
import { ApiError } from '../../src/http/errors.ts';

const KNOWN_CODES = new Set([
  'UNKNOWN_APP',
  'FORBIDDEN',
  'NO_DRAFT',
  'CHANGED_SINCE_REVIEW',
  'INVALID_CSS',
  'VALIDATION_FAILED',
  'UNSUPPORTED_IMAGE',
  'FILE_TOO_LARGE',
  'TOO_MANY_UPLOADS',
  'NETWORK',
]);

export function errorTextForCode(t: TFunction, code: string | undefined, fallbackKey: string): string {
  return code !== undefined && KNOWN_CODES.has(code) ? t(`apiErrors.${code}`) : t(fallbackKey);
}

export function errorText(t: TFunction, error: unknown, fallbackKey: string): string {
  return errorTextForCode(t, error instanceof ApiError ? error.code : 'NETWORK', fallbackKey);
}
