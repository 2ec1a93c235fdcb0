import type { Ajv, ErrorObject, FuncKeywordDefinition } from 'ajv';
import { Type, type TUnsafe } from 'typebox';
import { parseQuantity, QTY_DECIMALS, QTY_MAX, type QuantityOptions, type QuantityProblem } from '../../common/quantity.js';

/**
 * The schema keyword that applies the quantity rule (src/common/quantity.ts) to a request value.
 * It carries no `type`, on purpose: with type coercion on, a `number` type would turn `true` into 1
 * and a `string` type would turn 1e308 into "1e+308" before any rule saw the value. The keyword
 * sees what the caller sent, refuses it with the rule's own field code, or replaces it with its
 * exact decimal text, so that a handler always gets a string it can hand to decimal.js.
 */
export const QUANTITY_KEYWORD = 'x-quantity';

export interface QuantitySchemaOptions extends QuantityOptions {
  /** `null` (and an empty text) means "no quantity given" here; it reaches the handler as null. */
  nullable?: boolean;
}

/** The parameters of a refusal by the keyword, as the error handler reads them. */
export interface QuantityErrorParams {
  problem: QuantityProblem;
}

/** Where the value sits in the request, as AJV hands it to a keyword. */
interface DataPlace {
  parentData?: unknown;
  parentDataProperty?: string | number;
}

type QuantityValidate = ((schema: QuantitySchemaOptions, data: unknown, parentSchema?: unknown, cxt?: DataPlace) => boolean) & {
  errors?: Array<Partial<ErrorObject>>;
};

const validate: QuantityValidate = (schema, data, _parentSchema, cxt) => {
  let value: string | null;
  if (schema.nullable && (data === null || data === '')) {
    value = null;
  } else {
    const result = parseQuantity(data, schema);
    if (!result.ok) {
      const params: QuantityErrorParams = { problem: result.problem };
      validate.errors = [{ keyword: QUANTITY_KEYWORD, message: `is not a quantity (${result.problem.code})`, params }];
      return false;
    }
    value = result.value;
  }
  // The request holds the exact text from here on (a quantity is never the body itself).
  if (cxt?.parentData !== undefined && cxt.parentDataProperty !== undefined) {
    (cxt.parentData as Record<string | number, unknown>)[cxt.parentDataProperty] = value;
  }
  return true;
};

const definition: FuncKeywordDefinition = {
  keyword: QUANTITY_KEYWORD,
  schemaType: 'object',
  modifying: true,
  errors: true,
  validate,
};

/** Registers the keyword on the validator of the application's routes (Fastify's `ajv.plugins`). */
export function quantityKeyword(ajv: Ajv): Ajv {
  if (!ajv.getKeyword(QUANTITY_KEYWORD)) ajv.addKeyword(definition);
  return ajv;
}


/**
 * THE schema of a quantity in a request body, for every route that takes one: `Quantity()` above
 * 0, `Quantity({ zero: true })` at least 0, `Quantity({ nullable: true })` also null or "".
 */
export function Quantity(options?: QuantitySchemaOptions & { nullable?: false }): TUnsafe<string>;
export function Quantity(options: QuantitySchemaOptions & { nullable: true }): TUnsafe<string | null>;
export function Quantity(options: QuantitySchemaOptions = {}): TUnsafe<string> | TUnsafe<string | null> {
  const rule = { ...(options.zero ? { zero: true } : {}), ...(options.nullable ? { nullable: true } : {}) };
  const description = `A quantity: a JSON number or its decimal text, ${options.zero ? 'at least 0' : 'above 0'}, at most ${QTY_DECIMALS} decimals, at most ${QTY_MAX}${options.nullable ? '; null or "" when not given' : ''}`;
  return Type.Unsafe<string>({ [QUANTITY_KEYWORD]: rule, description });
}
