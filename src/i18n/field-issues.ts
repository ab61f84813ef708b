// A server field issue (server/http/field-issues.ts: a stable code, the values its text names and the
// English text) in the screens' language: the code picks the text, the values fill it, a count picks
// the plural form and a list is written the way the language writes lists.
import type { Texts } from './texts.ts';
import type { ServerFieldIssue } from '../flow/errors.ts';

/** ajv's keywords whose text names no value, by the runtime's key for them. */
const keywordKeys: Record<string, string> = {
  enum: 'serverMessages.chooseOption',
  const: 'serverMessages.chooseOption',
  oneOf: 'serverMessages.chooseOption',
  anyOf: 'serverMessages.chooseOption',
  type: 'serverMessages.wrongType',
  pattern: 'serverMessages.wrongFormat',
  format: 'serverMessages.wrongFormat',
};

/** The values as the text takes them: `limit` is also the plural `count`, lists are written as the language writes them. */
function valuesOf(params: Record<string, unknown>, language: string): Record<string, unknown> {
  const values: Record<string, unknown> = { ...params };
  if (typeof params.limit === 'number') values.count = params.limit;
  for (const [name, value] of Object.entries(params)) {
    if (Array.isArray(value)) values[name] = new Intl.ListFormat(language, { type: 'disjunction' }).format(value.map(String));
  }
  return values;
}

/** The issue's text in the screens' language, or undefined for a code this runtime has no text for. */
export function fieldIssueText(instance: Pick<Texts, 'exists' | 't' | 'language'>, issue: ServerFieldIssue): string | undefined {
  const values = valuesOf(issue.params ?? {}, instance.language);
  const key = [`fieldIssues.${issue.code}`, `serverMessages.${issue.code}`, keywordKeys[issue.code], issue.code].find(
    (candidate) => candidate !== undefined && instance.exists(candidate, values),
  );
  return key === undefined ? undefined : instance.t(key, values);
}
