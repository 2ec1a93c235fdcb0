import { Type } from 'typebox';

/** The body of every failure (DESIGN.md section 7), for route schemas and the OpenAPI page. */
export const ErrorBodySchema = Type.Object(
  {
    code: Type.String(),
    message: Type.String(),
    params: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]))),
    details: Type.Optional(
      Type.Array(
        Type.Object({
          field: Type.String(),
          code: Type.String(),
          message: Type.Optional(Type.String()),
          params: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]))),
        }),
      ),
    ),
  },
);

/** A row id in a request: a positive safe integer (issue 9, item 6: `1.5` or `1e308` as an id is a 400). */
export const IdSchema = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
