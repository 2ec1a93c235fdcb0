import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

/**
 * The compilers of route schemas, shared by every app this process builds.
 *
 * Fastify compiles each route's input validator (Ajv) and response serializer
 * (fast-json-stringify) when an app gets ready: for all routes of all areas that is over a second
 * of CPU. A process normally builds one app, but the API test workers build one per test file, and
 * by default each build compiles every schema again. Route schemas are module constants, so a
 * schema's object identity is a safe key: the validators come from one pool of Ajv instances (one
 * per set of options, and Ajv keeps what it compiled per schema object), the serializers from a
 * cache per schema object. Compiled functions hold no state between calls.
 *
 * A validator is compiled when its route is first called, not when the app gets ready: a server
 * start then costs no compiling for the hundreds of routes it may never be asked (about 0.7 s of
 * CPU per start), and a route asked once pays a few milliseconds once. A schema Ajv cannot
 * compile answers that route's requests with a 500; the route fuzz test calls every route with a
 * body, query and parameters, so such a schema fails it.
 */
const buildEagerValidator = AjvCompiler();

/** What Fastify needs of a validator: called with the value (and its parent, see below), `errors` read after a `false`. */
interface Validator {
  (data: unknown, context?: unknown): unknown;
  errors?: unknown;
  schemaEnv?: unknown;
}

function lazyValidator(compile: () => Validator): Validator {
  let compiled: Validator | undefined;
  const validate: Validator = (data, context) => {
    compiled ??= compile();
    const valid = compiled(data, context);
    validate.errors = compiled.errors;
    return valid;
  };
  // Fastify hands an Ajv validator (one with `schemaEnv`) the request as the value's parent, so that
  // Ajv may coerce the value itself (a query string's top level); every validator here is Ajv's.
  validate.schemaEnv = true;
  return validate;
}

type Compiled = ReturnType<ReturnType<typeof buildEagerValidator>>;

const buildValidator: typeof buildEagerValidator = (externalSchemas, options) => {
  const compile = buildEagerValidator(externalSchemas, options);
  return (route) => lazyValidator(() => compile(route) as Validator) as unknown as Compiled;
};

const serializerPools = new Map<string, WeakMap<object, (doc: unknown) => string>>();
const buildSerializerOf = SerializerSelector();

type BuildSerializer = typeof buildSerializerOf;
type Serializer = (doc: unknown) => string;

/**
 * Serializers not compiled yet, each with what compiles it. A route's response serializer is
 * compiled when the route first answers with that status, not when the app gets ready (about 0.4 s
 * of CPU per server start for all routes); `compilePendingSerializers` compiles the rest at once.
 */
const pendingSerializers = new Map<Serializer, { method?: string; url?: string; httpStatus?: string; compile: () => void }>();

function lazySerializer(route: { method?: string; url?: string; httpStatus?: string }, compile: () => Serializer): Serializer {
  let compiled: Serializer | undefined;
  const compileNow = () => {
    compiled ??= compile();
    pendingSerializers.delete(serialize);
    return compiled;
  };
  const serialize: Serializer = (doc) => (compiled ?? compileNow())(doc);
  pendingSerializers.set(serialize, { method: route.method, url: route.url, httpStatus: route.httpStatus, compile: compileNow });
  return serialize;
}

/**
 * Compiles every response serializer no request has needed yet, and answers the routes whose
 * response schema does not compile (with the error), so that a check can find such a schema
 * without calling each route with each status.
 */
export function compilePendingSerializers(): { route: string; error: string }[] {
  const failed: { route: string; error: string }[] = [];
  for (const pending of [...pendingSerializers.values()]) {
    try {
      pending.compile();
    } catch (error) {
      failed.push({ route: `${pending.method} ${pending.url} ${pending.httpStatus}`, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return failed;
}

const buildSerializer: BuildSerializer = (externalSchemas, options) => {
  const compile = buildSerializerOf(externalSchemas, options);
  const key = JSON.stringify([externalSchemas, options]);
  let compiled = serializerPools.get(key);
  if (!compiled) serializerPools.set(key, (compiled = new WeakMap()));
  const cache = compiled;
  return (route) => {
    const schema: unknown = route.schema;
    if (typeof schema !== 'object' || schema === null) return lazySerializer(route, () => compile(route));
    let serializer = cache.get(schema);
    if (!serializer) cache.set(schema, (serializer = lazySerializer(route, () => compile(route))));
    return serializer;
  };
};

export const SHARED_SCHEMA_COMPILERS: NonNullable<FastifyServerOptions['schemaController']> = {
  compilersFactory: { buildValidator, buildSerializer },
};
