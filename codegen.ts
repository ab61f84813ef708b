import type { CodegenConfig } from '@graphql-codegen/cli';

// One SDL, two outputs: typed documents for the runtime (src/gql) and resolver types for the server.
const config: CodegenConfig = {
  schema: 'schema/api.graphql',
  documents: ['src/**/*.graphql', 'configurator/**/*.graphql'],
  ignoreNoDocuments: true,
  generates: {
    'src/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: { documentMode: 'string', useTypeImports: true, enumsAsTypes: true, scalars: { JSONObject: 'Record<string, unknown>' } },
    },
    'server/graphql/generated/resolvers.ts': {
      plugins: ['typescript', 'typescript-resolvers'],
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        contextType: '../context.ts#GraphQLContext',
        useIndexSignature: false,
        scalars: { JSONObject: 'Record<string, unknown>' },
      },
    },
  },
};

export default config;
