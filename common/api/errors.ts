// The one error body every REST answer of Foyer's servers has (server/http/errors.ts): `error` is
// Foyer's machine code; the admin API adds `details` (one problem per JSON pointer), the management
// API `code` (the original product's code) and `fields`, the auth service `fields` (field issues).
import { Type, type Static } from 'typebox';

export const ProblemDetailSchema = Type.Object({
  path: Type.String({ description: 'JSON pointer into the request body, e.g. /branding/colors/primary' }),
  code: Type.String({ description: "A stable code: ajv's keyword where a schema found the problem" }),
  params: Type.Record(Type.String(), Type.Unknown()),
  message: Type.String(),
});
export type ProblemDetail = Static<typeof ProblemDetailSchema>;

export const ErrorBodySchema = Type.Object({
  statusCode: Type.Integer(),
  message: Type.String(),
  error: Type.String({ description: "Foyer's code, e.g. VALIDATION_FAILED" }),
  code: Type.Optional(Type.String({ description: "The original product's code, where one fits (e.g. NBLOCKS_CONFLICT)" })),
  details: Type.Optional(
    Type.Union([Type.Array(ProblemDetailSchema), Type.Object({}, { additionalProperties: true })], {
      description: 'The admin API: one problem per refused field; the auth service: what a refused password or plan lacks',
    }),
  ),
  fields: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'The refused input fields, by name' })),
});
export type ErrorBody = Static<typeof ErrorBodySchema>;

/** The refusals a route can answer, each with the error body: `refusals(400, 401, 404)`. */
export function refusals<const Status extends number>(...statuses: Status[]): Record<Status, typeof ErrorBodySchema> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorBodySchema])) as Record<Status, typeof ErrorBodySchema>;
}
