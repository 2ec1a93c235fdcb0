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
 */
const buildValidator = AjvCompiler();

const serializerPools = new Map<string, WeakMap<object, (doc: unknown) => string>>();
const buildSerializerOf = SerializerSelector();

type BuildSerializer = typeof buildSerializerOf;

const buildSerializer: BuildSerializer = (externalSchemas, options) => {
  const compile = buildSerializerOf(externalSchemas, options);
  const key = JSON.stringify([externalSchemas, options]);
  let compiled = serializerPools.get(key);
  if (!compiled) serializerPools.set(key, (compiled = new WeakMap()));
  const cache = compiled;
  return (route) => {
    const schema: unknown = route.schema;
    if (typeof schema !== 'object' || schema === null) return compile(route);
    let serializer = cache.get(schema);
    if (!serializer) cache.set(schema, (serializer = compile(route)));
    return serializer;
  };
};

export const SHARED_SCHEMA_COMPILERS: NonNullable<FastifyServerOptions['schemaController']> = {
  compilersFactory: { buildValidator, buildSerializer },
};
