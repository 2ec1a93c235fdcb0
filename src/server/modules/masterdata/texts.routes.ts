import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { DEFAULT_LANGUAGE } from '../../../common/languages.js';
import { routeOptions } from '../../http/route-options.js';
import { ErrorBodySchema } from '../../http/schemas.js';
import { multTextsIn } from './masterdata.repository.js';

const route = routeOptions(['masterdata'], { 401: ErrorBodySchema });

/**
 * The install's own texts (the multilingual texts of /mult) in the caller's language. The browser
 * lays them over the shipped texts: a page label or menu entry whose code has a text here shows it,
 * unless the page definition has its own text in that language. Every signed-in user reads them,
 * as every user reads the menu.
 */
export const textsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/masterdata/texts',
    route({ session: true }, 'The multilingual texts of /mult in the caller\'s language, by text code', {}, Type.Object({ texts: Type.Record(Type.String(), Type.String()) })),
    async (request) => ({ texts: await multTextsIn(app.database.db, request.language ?? DEFAULT_LANGUAGE) }),
  );
};
