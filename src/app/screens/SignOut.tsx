// /auth/sign-out: where an app's standard logout (/session/end on the auth service) asks the person
// to confirm (server/auth/oidc/logout.ts). The form posts the confirmation to the auth service; when the app
// proved whom it signs out (`confirmed`), it is sent at once. This browser's tokens for the app go too.
import { useEffect, useRef, useState } from 'react';
import { useTexts } from '../../i18n/texts.ts';
import { useLocation } from 'react-router';
import { Button } from '../../theme/Button.tsx';
import { AuthLayout } from '../layouts/AuthLayout.tsx';
import { useAppConfig, useRuntime } from '../../runtime/context.tsx';
import { usePageTitle } from '../page-title.ts';

export default function SignOut() {
  const { t } = useTexts();
  usePageTitle(t('signOut.heading'));
  const { config, auth } = useRuntime();
  const app = useAppConfig();
  const query = new URLSearchParams(useLocation().search);
  const xsrf = query.get('xsrf') ?? '';
  const confirmed = query.get('confirmed') === '1';
  const form = useRef<HTMLFormElement>(null);
  const [sending, setSending] = useState(confirmed);

  useEffect(() => {
    if (!confirmed || !form.current) return;
    auth.clear();
    form.current.submit();
  }, [confirmed, auth]);

  return (
    <AuthLayout heading={t('signOut.heading')}>
      <form
        ref={form}
        method="post"
        action={`${config.authUrl}/session/end/confirm`}
        onSubmit={() => {
          setSending(true);
          auth.clear();
        }}
      >
        <input type="hidden" name="xsrf" value={xsrf} />
        <input type="hidden" name="logout" value="yes" />
        {confirmed ? (
          <p role="status" className="foyer-center">
            {t('signOut.signingOut')}
          </p>
        ) : (
          <>
            <p>{t('signOut.question', { app: app?.name ?? '' })}</p>
            <Button type="submit" loading={sending} autoFocus>
              {t('signOut.confirm')}
            </Button>
          </>
        )}
      </form>
    </AuthLayout>
  );
}
