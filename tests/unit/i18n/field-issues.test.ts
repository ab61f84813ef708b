// Server field messages that name a value (a length, a range, a list) reach the user in the screens'
// language: the server's own checks make the answer (server/graphql/input.ts and the others), the
// runtime reads it as a refused request (src/flow/errors.ts) and translates code and values.
import Ajv from 'ajv';
import type { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { checkAttributes } from '../../../server/graphql/attributes/check.ts';
import type { AttributeCatalog } from '../../../server/graphql/attributes/catalog.ts';
import { checkCustomParams } from '../../../server/graphql/custom-params/service.ts';
import { checkLocale, checkName, InputProblems } from '../../../server/graphql/input.ts';
import { checkListArguments } from '../../../server/graphql/users/list.ts';
import type { AppSettings } from '../../../server/db/app-settings.ts';
import { serverFieldErrors } from '../../../src/flow/errors.ts';
import { ApiError } from '../../../src/http/errors.ts';
import { translateServerMessage } from '../../../src/i18n/index.ts';
import { createI18n, showLanguage } from '../../../src/i18n/i18next.ts';
import en from '../../../src/i18n/locales/en.json';

/** The refusal `check` throws (a GraphQL error), as the runtime's GraphQL client hands it on. */
function refused(check: () => void): ApiError {
  let thrown: GraphQLError | undefined;
  try {
    check();
  } catch (error) {
    thrown = error as GraphQLError;
  }
  if (!thrown) throw new Error('the check found nothing');
  const answered = JSON.parse(JSON.stringify(thrown.toJSON())) as { message: string; extensions: Record<string, unknown> };
  return new ApiError({ message: answered.message, code: 'BAD_USER_INPUT', statusCode: 400, details: [answered] });
}

/** The refusal of what `check` records. */
function refusal(check: (problems: InputProblems) => void): ApiError {
  return refused(() => {
    const problems = new InputProblems();
    check(problems);
    problems.throwIfAny();
  });
}

/** What the form shows under each field, in `language`. */
async function shown(language: string, error: ApiError): Promise<Record<string, string[]>> {
  const i18n = createI18n('en', { en });
  await showLanguage(i18n, language);
  return Object.fromEntries(
    Object.entries(serverFieldErrors(error)).map(([field, messages]) => [
      field,
      messages.map((message) => translateServerMessage(i18n, message)),
    ]),
  );
}

const tooLongName = refusal((problems) => checkName(problems, 'name', 'x'.repeat(101)));

describe('server field messages with values', () => {
  it('reach a Swedish, a Japanese and an Arabic user in their language, the number written as the language writes it', async () => {
    expect(await shown('sv', tooLongName)).toEqual({ name: ['Högst 100 tecken'] });
    expect(await shown('ja', tooLongName)).toEqual({ name: ['100 文字以内で入力してください'] });
    expect(await shown('ar', tooLongName)).toEqual({ name: [`${new Intl.NumberFormat('ar').format(100)} حرف كحد أقصى`] });
    expect(await shown('en', tooLongName)).toEqual({ name: ['At most 100 characters'] });
  });

  it('pick the plural form the number asks for', async () => {
    const custom = (limit: number) =>
      refusal((problems) => {
        problems.add('a', { code: 'maxLength', params: { limit }, message: `At most ${limit} characters` });
      });
    expect(await shown('pl', custom(1))).toEqual({ a: ['Maksymalnie 1 znak'] });
    expect(await shown('pl', custom(3))).toEqual({ a: ['Maksymalnie 3 znaki'] });
    expect(await shown('pl', custom(40))).toEqual({ a: ['Maksymalnie 40 znaków'] });
    expect(await shown('en', custom(1))).toEqual({ a: ['At most 1 character'] });
  });

  it('write a list of choices the way the language writes lists', async () => {
    const locale = refusal((problems) => checkLocale(problems, 'locale', 'xx'));
    const [german] = (await shown('de', locale)).locale!;
    expect(german).toMatch(/^Wählen Sie eines davon: en, sv, .+ oder uk$/);
    const [english] = (await shown('en', locale)).locale!;
    expect(english).toMatch(/^Choose one of: en, sv, .+, or uk$/);
  });

  it('cover the list arguments, custom signup fields and flow-collected values (ajv keyword and params)', async () => {
    const list = refused(() => checkListArguments({ offset: -1, limit: 1000, search: 'x'.repeat(1000) }));
    expect(await shown('sv', list)).toEqual({ offset: ['Minst 0'], limit: ['Från 1 till 100'], search: ['Högst 200 tecken'] });

    const settings = { customSignupFields: [{ label: 'team', type: 'text', userLabel: 'Team' }] } as unknown as AppSettings;
    const custom = refusal((problems) => checkCustomParams(settings, [{ label: 'team', value: 'x'.repeat(1001) }], problems));
    expect(await shown('fi', custom)).toEqual({ team: ['Enintään 1000 merkkiä'] });

    const schema = { type: 'string', minLength: 3, maxLength: 40 };
    const catalog: AttributeCatalog = new Map([
      [
        'signup',
        new Map([['companyName', { target: 'tenant', schema, required: false, validate: new Ajv({ allErrors: true }).compile(schema) }]]),
      ],
    ]);
    const attribute = refusal((problems) => checkAttributes(catalog, 'signup', { companyName: 'x'.repeat(41) }, problems));
    expect(attribute.details).toMatchObject([
      { extensions: { fieldIssues: { companyName: [{ code: 'maxLength', params: { limit: 40 }, message: 'At most 40 characters' }] } } },
    ]);
    expect(await shown('ja', attribute)).toEqual({ companyName: ['40 文字以内で入力してください'] });
  });
});
