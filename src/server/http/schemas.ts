import { Type, type TProperties } from 'typebox';

/** The body of every failure, for route schemas and the OpenAPI page. */
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

/** A row id in a request: a positive safe integer (`1.5` or `1e308` as an id is a 400). */
export const IdSchema = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

/** A request body, or an object in one, of exactly these properties: any other is refused (400). */
export const StrictObject = <P extends TProperties>(properties: P) => Type.Object(properties, { additionalProperties: false });
