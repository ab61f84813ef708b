// What a refused createUsers answer means for the invite form: a reason per address (translated when
// known), and who was invited all the same.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/http/errors.ts';
import { inviteFailureKey, inviteOutcomeOf } from '../../../src/components/InviteUsers.tsx';

function refused(extensions: Record<string, unknown>): ApiError {
  return new ApiError({
    message: 'Some addresses were not invited',
    code: 'BAD_USER_INPUT',
    statusCode: 400,
    details: [{ message: 'Some addresses were not invited', extensions: { code: 'BAD_USER_INPUT', ...extensions } }],
  });
}

describe('inviteOutcomeOf', () => {
  it('maps known reasons to translation keys and keeps other messages as the server wrote them', () => {
    const outcome = inviteOutcomeOf(
      refused({
        fields: {
          'Not-An-Address': 'Enter a valid e-mail address',
          'adam@acme.test': 'Already a member of this workspace',
          'x@y.test': 'Odd',
        },
        reasons: { 'Not-An-Address': 'INVALID_EMAIL', 'adam@acme.test': 'ALREADY_MEMBER', 'x@y.test': 'SOMETHING_NEW' },
        invited: [{ id: 'tu-1', email: 'new@acme.test' }],
      }),
    );
    expect(outcome).toEqual({
      invited: ['new@acme.test'],
      failures: {
        'not-an-address': 'users.invite.errors.INVALID_EMAIL',
        'adam@acme.test': 'users.invite.errors.ALREADY_MEMBER',
        'x@y.test': 'Odd',
      },
    });
  });

  it('is undefined for failures that are not about addresses', () => {
    expect(inviteOutcomeOf(refused({ fields: { userNames: 'Enter at least one e-mail address' } }))).toBeUndefined();
    expect(inviteOutcomeOf(new ApiError({ message: 'no', code: 'FORBIDDEN', statusCode: 403 }))).toBeUndefined();
    expect(inviteOutcomeOf(new TypeError('Failed to fetch'))).toBeUndefined();
  });
});

describe('memberErrorKey', () => {
  it('names the server rule that refused a member change, else the fallback', async () => {
    const { memberErrorKey } = await import('../../../src/components/users/errors.ts');
    const refusal = (code: string, statusCode: number) =>
      new ApiError({ message: code, code, statusCode, details: [{ extensions: { code, response: { statusCode } } }] });
    expect(memberErrorKey(refusal('OWNER_ROLE_MUST_EXIST', 403), 'users.errors.update')).toBe('users.errors.OWNER_ROLE_MUST_EXIST');
    expect(memberErrorKey(refusal('SELF_CHANGE_FORBIDDEN', 403), 'users.errors.update')).toBe('users.errors.SELF_CHANGE_FORBIDDEN');
    expect(memberErrorKey(refusal('INTERNAL_SERVER_ERROR', 500), 'users.errors.delete')).toBe('users.errors.delete');
    expect(memberErrorKey(new TypeError('Failed to fetch'), 'users.errors.reset')).toBe('users.errors.reset');
  });
});

describe('inviteFailureKey', () => {
  it('names a form message for every refusal that names no address', () => {
    expect(inviteFailureKey(refused({ fields: { userNames: 'At most 20 addresses at a time' } }))).toBe('users.invite.errors.tooMany');
    expect(inviteFailureKey(new ApiError({ message: 'slow down', code: 'TOO_MANY_REQUESTS', statusCode: 429 }))).toBe(
      'users.invite.errors.TOO_MANY_REQUESTS',
    );
    expect(inviteFailureKey(new ApiError({ message: 'no', code: 'FORBIDDEN', statusCode: 403 }))).toBe('users.invite.errors.FORBIDDEN');
    expect(inviteFailureKey(new TypeError('Failed to fetch'))).toBe('users.invite.errors.generic');
  });
});
