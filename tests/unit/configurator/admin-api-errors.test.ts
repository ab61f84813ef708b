// Refusals of the admin API as the configurator reads them: {statusCode, message, error, details}.
import { describe, expect, it } from 'vitest';
import { AdminApiError, errorFromAnswer } from '../../../configurator/api/client.ts';

describe('errorFromAnswer', () => {
  it('keeps the code, the message and every field issue with a path', () => {
    const error = errorFromAnswer(400, {
      statusCode: 400,
      error: 'VALIDATION_FAILED',
      message: 'The config is not valid',
      details: [{ path: '/branding/colors/primary', message: 'must match pattern' }, { message: 'no path' }, 'junk'],
    });
    expect(error).toBeInstanceOf(AdminApiError);
    expect(error.statusCode).toBe(400);
    expect(error.error).toBe('VALIDATION_FAILED');
    expect(error.message).toBe('The config is not valid');
    expect(error.details).toEqual([{ path: '/branding/colors/primary', message: 'must match pattern' }]);
  });

  it('falls back to the HTTP status for an answer without a JSON body', () => {
    const error = errorFromAnswer(502, undefined);
    expect(error.statusCode).toBe(502);
    expect(error.error).toBe('HTTP_502');
    expect(error.details).toEqual([]);
  });
});
