// A shop API declared with rove/contract, for the tests with real third-party clients
// (openapi-typescript, openapi-fetch, Stoplight Prism): every method, a patterned param, query,
// headers, JSON and form bodies, several statuses and two auth schemes.
import { z } from 'zod';
import { group, route } from '../../../src/contract/index.ts';

export const Item = z.object({ id: z.number().int().positive(), name: z.string().min(1), price: z.number().nonnegative() });
const NewItem = z.object({ name: z.string().min(1).max(40), price: z.number().nonnegative() });
const Id = z.object({ id: z.coerce.number().int().positive() });

export const shop = group('/shop', {
  list: route({
    method: 'GET',
    path: '/items',
    operationId: 'listItems',
    request: { query: z.object({ limit: z.coerce.number().int().min(1).max(50).optional(), q: z.string().max(20).optional() }) },
    responses: { 200: z.array(Item) },
  }),
  get: route({ method: 'GET', path: '/items/:id{[0-9]+}', operationId: 'getItem', request: { params: Id }, responses: { 200: Item } }),
  create: route({
    method: 'POST',
    path: '/items',
    operationId: 'createItem',
    auth: 'bearer',
    request: { json: NewItem, headers: z.object({ 'x-request-tag': z.string().max(16).optional() }) },
    responses: { 201: Item, 409: z.object({ conflict: z.string() }) },
  }),
  replace: route({
    method: 'PUT',
    path: '/items/:id{[0-9]+}',
    operationId: 'replaceItem',
    auth: 'bearer',
    request: { params: Id, json: NewItem },
    responses: { 200: Item },
  }),
  rename: route({
    method: 'PATCH',
    path: '/items/:id{[0-9]+}/name',
    operationId: 'renameItem',
    auth: ['basic', 'bearer'],
    request: { params: Id, form: z.object({ name: z.string().min(1).max(40) }) },
    responses: { 200: Item },
  }),
  remove: route({ method: 'DELETE', path: '/items/:id{[0-9]+}', operationId: 'deleteItem', auth: 'bearer', request: { params: Id }, responses: { 204: null } }),
  ping: route({ method: 'HEAD', path: '/ping', operationId: 'ping', responses: { 200: null } }),
  options: route({ method: 'OPTIONS', path: '/items', operationId: 'itemOptions', responses: { 204: null } }),
});
