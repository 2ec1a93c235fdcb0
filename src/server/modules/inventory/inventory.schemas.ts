import { Type } from 'typebox';
import { routeOptions } from '../../http/route-options.js';
import { ErrorBodySchema } from '../../http/schemas.js';

/** Request schemas the inventory routes share (the screens' calls, their exports and background exports). */

export const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };
export const tags = ['inventory'];
/** The options of an inventory route: its right, summary, request and answer (anything when not given), or an error body. */
export const route = routeOptions(tags, errors);
/** A calendar day, YYYY-MM-DD. */
export const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
export const ShortText = (max: number) => Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()]));

/** What the transaction log is asked for: a type and a period (both required by its rules, refused by field when missing), and optional filters. */
export const LogQuery = {
  transType: ShortText(20),
  from: Type.Optional(Type.Union([Day, Type.Null()])),
  to: Type.Optional(Type.Union([Day, Type.Null()])),
  skuCode: ShortText(60),
  locationCode: ShortText(40),
  orderNo: ShortText(60),
  ownerCode: ShortText(40),
  lotNo: ShortText(60),
  lpn: ShortText(60),
};
