// The signed-in header's workspace switcher: a disclosure listing the user's workspaces; choosing one
// gets tokens for it in one move (AuthClient.switchWorkspace), and the page comes back showing it.
import { useEffect, useId, useState } from 'react';
import { useTexts } from '../../i18n/texts.ts';
import { Link } from 'react-router';
import type { WorkspaceUser } from '../../auth/types.ts';
import { Button } from '../../theme/Button.tsx';
import { useAuthChanges } from '../../runtime/context.tsx';

type Listing = { status: 'closed' | 'loading' | 'failed' } | { status: 'ready'; workspaces: WorkspaceUser[] };

export function WorkspaceSwitcher() {
  const { t } = useTexts();
  const auth = useAuthChanges();
  const listId = useId();
  const [listing, setListing] = useState<Listing>({ status: 'closed' });
  const [switching, setSwitching] = useState<string | null>(null);
  const open = listing.status !== 'closed';
  const current = auth.currentTenantUserId();

  useEffect(() => {
    if (listing.status !== 'loading') return;
    let live = true;
    auth.signIn.tenantUsers().then(
      (workspaces) => live && setListing({ status: 'ready', workspaces }),
      () => live && setListing({ status: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, [auth, listing.status]);

  return (
    <div
      className="foyer-switcher"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) setListing({ status: 'closed' });
      }}
    >
      <Button
        variant="secondary"
        size="sm"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setListing(open ? { status: 'closed' } : { status: 'loading' })}
      >
        {t('workspaceSwitcher.toggle')}
      </Button>
      {open && (
        <div id={listId} className="foyer-switcher__panel">
          {listing.status === 'loading' && <p role="status">{t('workspaceSwitcher.loading')}</p>}
          {listing.status === 'failed' && (
            <p role="alert">
              {t('workspaceSwitcher.unavailable')} <Link to="/auth/login">{t('workspaceSwitcher.signInAgain')}</Link>
            </p>
          )}
          {listing.status === 'ready' && (
            <ul className="foyer-switcher__list" aria-label={t('workspaceSwitcher.label')}>
              {listing.workspaces.map((workspace) => {
                const name = workspace.tenant.name || t('chooseUser.newAccount');
                return (
                  <li key={workspace.id}>
                    {workspace.id === current ? (
                      <span className="foyer-switcher__current" aria-current="true">
                        {name} <span className="foyer-visually-hidden">{t('workspaceSwitcher.current')}</span>
                      </span>
                    ) : (
                      <Button
                        variant="link"
                        size="sm"
                        loading={switching === workspace.id}
                        onClick={() => {
                          setSwitching(workspace.id);
                          void auth.signIn.switchWorkspace(workspace.id);
                        }}
                      >
                        {name}
                      </Button>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
