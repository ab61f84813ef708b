// @vitest-environment node
// The meta-schema's registered names are generated (npm run flows:schema): the committed file must be
// what the generator writes from today's registries, so editors never autocomplete a stale list.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FLOW_SCHEMA_FILE, flowSchemaText } from '../../../scripts/flow-schema.ts';
import { ACTION_NAMES, COMPONENT_NAMES } from '../../../src/flow/registry-names.ts';

describe('flow meta-schema', () => {
  it('is the generated one (run npm run flows:schema after changing a registry)', () => {
    expect(readFileSync(FLOW_SCHEMA_FILE, 'utf8')).toBe(flowSchemaText());
  });

  it('lists every registered action, GraphQL operation, component and widget for autocompletion', () => {
    const definitions = (
      JSON.parse(readFileSync(FLOW_SCHEMA_FILE, 'utf8')) as { definitions: Record<string, { anyOf: { enum?: string[] }[] }> }
    ).definitions;
    const names = (definition: string) => definitions[definition]!.anyOf[0]!.enum;
    expect(names('actionName')).toEqual(expect.arrayContaining([...ACTION_NAMES, 'gql.CreateTenantAnonymous']));
    expect(names('componentName')).toEqual([...COMPONENT_NAMES]);
    expect(names('widgetName')).toEqual(expect.arrayContaining(['consent', 'password', 'select']));
    expect(names('formFieldName')).toEqual(['CustomParams']);
  });
});
