// Refusals of the admin API as the configurator reads them through the runtime's one transport:
// {statusCode, message, error, details} becomes an ApiError with its code and refused fields.
import { describe, expect, it } from 'vitest';
import { AdminApi } from '../../../configurator/api/client.ts';
import type { AuthClient } from '../../../src/auth/index.ts';
import { ApiError, UnauthenticatedError } from '../../../src/http/errors.ts';

function adminApiAnswering(status: number, body: string | undefined) {
  let cleared = false;
  const auth = { ensureFresh: async () => undefined, accessToken: () => 'token', clear: () => (cleared = true) } as unknown as AuthClient;
  const api = new AdminApi('https://api.test', auth, async () => new Response(body, { status }));
  return { api, wasCleared: () => cleared };
}

describe('admin API errors', () => {
  it('keeps the code, the message and every field issue with a path', async () => {
    const { api } = adminApiAnswering(
      400,
      JSON.stringify({
        statusCode: 400,
        error: 'VALIDATION_FAILED',
        message: 'The config is not valid',
        details: [{ path: '/branding/colors/primary', message: 'must match pattern' }, { message: 'no path' }, 'junk'],
      }),
    );
    const error = await api.listApps().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED', message: 'The config is not valid' });
    expect((error as ApiError).issues).toEqual([{ path: '/branding/colors/primary', message: 'must match pattern' }]);
  });

  it('falls back to the HTTP status for an answer without a JSON body', async () => {
    const { api } = adminApiAnswering(502, undefined);
    const error = await api.listApps().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ statusCode: 502, code: undefined, issues: [] });
  });

  it('ends the console session when the token is refused', async () => {
    const { api, wasCleared } = adminApiAnswering(401, JSON.stringify({ statusCode: 401, error: 'UNAUTHENTICATED', message: 'no' }));
    await expect(api.listApps()).rejects.toBeInstanceOf(UnauthenticatedError);
    expect(wasCleared()).toBe(true);
  });
});
