// The notes JSON API, declared once with rove/contract: app.ts implements it, serves its
// OpenAPI document at /api/openapi.json, and a client can import it as a type (createClient).
import { group, route } from 'rove/contract';
import { z } from 'zod';

export const Note = z.object({ id: z.number().int(), text: z.string(), createdAt: z.string() });

export const notesApi = group('/api', {
  /** The session's notes (the session cookie, not a token); an ETag, and 304 to If-None-Match. */
  list: route({
    method: 'GET',
    path: '/notes',
    summary: "The logged-in user's notes",
    responses: { 200: z.array(Note), 304: null },
  }),
  /** A note for the token's `sub`. The handler trims the text and takes 1 to 500 characters. */
  add: route({
    method: 'POST',
    path: '/notes',
    summary: "Add a note for the Bearer JWT's user (sub)",
    auth: 'jwt',
    request: { json: z.object({ text: z.string().describe('1 to 500 characters, once trimmed') }) },
    responses: { 201: Note },
  }),
});
