// The workspace list of /auth/choose-user: one radio per workspace the user belongs to.
import { useTexts } from '../i18n/texts.ts';
import type { WorkspaceUser } from '../auth/types.ts';
import type { FlowComponentProps } from '../flow/component-types.ts';

function workspacesOf(value: unknown): WorkspaceUser[] {
  return Array.isArray(value) ? (value as WorkspaceUser[]) : [];
}

export default function WorkspacePicker({ props, form, setForm, status }: FlowComponentProps) {
  const { t } = useTexts();
  const workspaces = workspacesOf(props.workspaces);
  return (
    <fieldset className="foyer-choices" disabled={status === 'submitting' || status === 'leaving'}>
      <legend className="foyer-visually-hidden">{t('chooseUser.listLabel')}</legend>
      {workspaces.map((workspace) => {
        const name = workspace.tenant.name || t('chooseUser.newAccount');
        return (
          <label key={workspace.id} className="foyer-choice">
            <input
              type="radio"
              name="tenantUserId"
              value={workspace.id}
              checked={form.tenantUserId === workspace.id}
              onChange={() => setForm({ tenantUserId: workspace.id })}
            />
            {workspace.tenant.logo && <img src={workspace.tenant.logo} alt="" />}
            <span>{name}</span>
          </label>
        );
      })}
    </fieldset>
  );
}
