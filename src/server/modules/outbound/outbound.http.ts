import { Type } from 'typebox';
import { routeOptions } from '../../http/route-options.js';
import { ErrorBodySchema } from '../../http/schemas.js';

/** What the outbound routes share: their options and the optional text and date fields of their bodies. */

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };
/** The options of an outbound route: its right, summary and request; it answers JSON or an error body. */
export const route = routeOptions(['outbound'], errors);

/** An optional text of at most `max` characters, or null. */
export const OptText = (max = 100) => Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()]));
/** An optional day (YYYY-MM-DD), or null. */
export const OptDate = Type.Optional(Type.Union([Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }), Type.Null()]));
