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
