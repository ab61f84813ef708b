// The management flows as data: the workspace form offers exactly the supported locales, the users
// flow gates the invite form by role, and every management route sits under the signed-in layout.
import { describe, expect, it } from 'vitest';
import usersFlow from '../../../flows/users.json';
import workspaceFlow from '../../../flows/workspace.json';
import profileFlow from '../../../flows/profile.json';
import workspaceForm from '../../../schema/forms/workspace.json';
import { isManagementRoute } from '../../../src/app/router.tsx';
import { SUPPORTED_LOCALES } from '../../../common/locales.ts';

describe('management flows', () => {
  it('offers exactly the supported locales', () => {
    expect(workspaceForm.schema.properties.locale.oneOf.map((option) => option.const)).toEqual([...SUPPORTED_LOCALES]);
  });

  it('serves every management route inside the signed-in layout', () => {
    for (const flow of [usersFlow, workspaceFlow, profileFlow]) {
      for (const route of flow.routes) expect(isManagementRoute(route), route).toBe(true);
    }
    expect(usersFlow.routes).toEqual(['/user/list', '/user-management/users']);
    expect(isManagementRoute('/auth/login')).toBe(false);
  });

  it('sends profile changes with the privacy consent and renews the tokens afterwards', () => {
    const submit = profileFlow.steps.PROFILE.submit;
    expect(submit.action).toBe('gql.UpdateMe');
    expect(submit.input['user.consentsToPrivacyPolicy']).toBe(true);
    expect(submit.then).toEqual([{ action: 'auth.refresh' }]);
  });
});
