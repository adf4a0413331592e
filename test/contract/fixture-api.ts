// The contract the contract tests share: a small users API.
import { z } from 'zod';
import { group, route } from '../../src/contract/index.ts';

export const User = z.object({ id: z.number().int(), name: z.string().min(1), email: z.email().optional() });
export const NewUser = User.omit({ id: true });

export const listUsers = route({
  method: 'GET',
  path: '/users',
  summary: 'List users',
  request: { query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(10), q: z.string().optional() }) },
  responses: { 200: z.array(User) },
});

export const getUser = route({
  method: 'GET',
  path: '/users/:id{[0-9]+}',
  summary: 'One user',
  request: { params: z.object({ id: z.coerce.number().int() }) },
  responses: { 200: User, 404: null },
});

export const createUser = route({
  method: 'POST',
  path: '/users',
  auth: ['bearer', 'jwt'],
  request: { json: NewUser, headers: z.object({ 'x-request-tag': z.string().optional() }) },
  responses: { 201: User },
});

export const renameUser = route({
  method: 'PUT',
  path: '/users/:id{[0-9]+}/name',
  auth: 'basic',
  request: { params: z.object({ id: z.coerce.number().int() }), form: z.object({ name: z.string().min(1) }) },
  responses: { 200: User, 404: null },
});

export const findFile = route({
  method: 'GET',
  path: '/files/:dir/:name?',
  responses: { 200: z.object({ dir: z.string(), name: z.string().nullable() }) },
});

export const api = group('/v1', { users: { list: listUsers, get: getUser, create: createUser, rename: renameUser }, findFile });
