// The languages a workspace (and its mails) can be set to. The server refuses any other locale; the
// runtime offers exactly these.
export const SUPPORTED_LOCALES = ['en', 'sv'] as const;

export type SupportedLocale = (typeof SUPPORTED_LOCALES)[number];

export const DEFAULT_LOCALE: SupportedLocale = 'en';

export function isSupportedLocale(value: string): value is SupportedLocale {
  return (SUPPORTED_LOCALES as readonly string[]).includes(value);
}
