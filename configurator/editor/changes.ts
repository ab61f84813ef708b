// The publish dialog's list: each change of the draft against the live version as a readable
// sentence ("Google sign-in enabled", "Primary colour #1f42dd → #00aa77", "3 translations changed (sv)").
import type { i18n as I18n } from 'i18next';
import { socialProviderFlags, socialProviders, type SocialProvider } from '../../common/app-config.ts';
import type { Change } from '../api/types.ts';

/** Values longer than this read as "changed" without quoting them (custom CSS, long URLs lists). */
const MAX_QUOTED_LENGTH = 60;

const providerOfFlag = new Map<string, SocialProvider>(socialProviders.map((provider) => [socialProviderFlags[provider], provider]));

function isProvider(value: string | undefined): value is SocialProvider {
  return (socialProviders as readonly string[]).includes(value ?? '');
}

/** The readable name of a config path, or the path itself when the console has no name for it. */
export function subjectOf(i18n: I18n, path: string): string {
  const flagProvider = providerOfFlag.get(path);
  if (flagProvider) return i18n.t('changeSubjects.sso', { provider: i18n.t(`providers.${flagProvider}`) });
  const [root, provider, field] = path.split('.');
  if (root === 'socialProviders' && isProvider(provider)) {
    const name = i18n.t(`providers.${provider}`);
    if (field === 'clientId') return i18n.t('changeSubjects.clientId', { provider: name });
    if (field === 'clientSecret') return i18n.t('changeSubjects.clientSecret', { provider: name });
    return i18n.t('changeSubjects.providerSettings', { provider: name });
  }
  const key = `changeSubjects.${path}`;
  return i18n.exists(key) && typeof i18n.t(key, { returnObjects: true }) === 'string' ? i18n.t(key) : path;
}

function quoted(i18n: I18n, value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return i18n.t('changes.none');
  if (typeof value === 'boolean') return i18n.t(value ? 'changes.on' : 'changes.off');
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > MAX_QUOTED_LENGTH ? undefined : text;
}

export function describeChange(i18n: I18n, change: Change): string {
  switch (change.kind) {
    case 'enabled':
      return i18n.t('changes.enabled', { subject: subjectOf(i18n, change.path) });
    case 'disabled':
      return i18n.t('changes.disabled', { subject: subjectOf(i18n, change.path) });
    case 'changed': {
      const subject = subjectOf(i18n, change.path);
      const from = quoted(i18n, change.from);
      const to = quoted(i18n, change.to);
      if (from === undefined || to === undefined) return i18n.t('changes.changedLong', { subject });
      return i18n.t('changes.changed', { subject, from, to });
    }
    case 'translations':
      return i18n.t('changes.translations', { count: change.count, language: change.language });
    case 'list': {
      const parts = (['added', 'removed', 'changed'] as const)
        .filter((part) => change[part] > 0)
        .map((part) => i18n.t(`changes.list.${part}`, { count: change[part] }));
      return i18n.t('changes.list.sentence', {
        subject: subjectOf(i18n, change.path),
        parts: parts.length > 0 ? parts.join(', ') : i18n.t('changes.list.reordered'),
      });
    }
    case 'secret':
      return i18n.t('changes.secret', { subject: subjectOf(i18n, change.path) });
  }
}
