// The app config the server's first paint carries: what GetAppAnonymous (src/graphql/app.graphql)
// answers the runtime, taken from the server's whole public config of the app.
// The parser alone: graphql's index loads its whole engine, 60-90 ms of the first page after a start.
import { parse } from 'graphql/language/parser.js';
import { GetAppAnonymousDocument } from '../gql/graphql.ts';
import type { PublicAppConfig } from '../runtime/app-config.ts';

let fields: string[] | undefined;

/** The fields GetAppAnonymous asks for, in its order. */
function publicFields(): string[] {
  if (fields) return fields;
  const [operation] = parse(GetAppAnonymousDocument.toString()).definitions;
  const [app] = operation?.kind === 'OperationDefinition' ? operation.selectionSet.selections : [];
  fields =
    app?.kind === 'Field' && app.selectionSet
      ? app.selectionSet.selections.flatMap((selection) => (selection.kind === 'Field' ? [selection.name.value] : []))
      : [];
  return fields;
}

/** `config` with only the fields GetAppAnonymous asks for (a missing one is null, as GraphQL answers it). */
export function publicAppConfigOf(config: Record<string, unknown>): PublicAppConfig {
  return Object.fromEntries(publicFields().map((field) => [field, config[field] ?? null])) as PublicAppConfig;
}
