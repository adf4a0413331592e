// The Deno adapters' respond: a body-less answer's headers go in the init, and the result is the
// same CheckedResponse, with the same headers, as the shared respondChecked gives.
import { describe, expect, it } from 'vitest';
import { respondDeno } from '../../../adapters/deno/respond.ts';
import { CheckedResponse, respondChecked } from '../../../adapters/shared/checked-response.ts';

const headersOf = (res: Response) => [...res.headers];

describe('respondDeno', () => {
  it('gives a body-less answer the same status and headers as respondChecked, cookies one by one', () => {
    const record = { 'access-control-allow-origin': 'https://app.example', vary: 'Origin', 'set-cookie': ['a=1', 'b=2'] };
    const mine = respondDeno(null, 204, record);
    const shared = respondChecked(null, 204, record);
    expect(mine).toBeInstanceOf(CheckedResponse);
    expect((mine as CheckedResponse).touched).toBe(false);
    expect(mine.status).toBe(204);
    expect(headersOf(mine)).toEqual(headersOf(shared));
    expect(mine.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
  });

  it('keeps the default status and no headers for an empty record, and builds bodies as respondChecked', async () => {
    const empty = respondDeno(null, 200, {});
    expect(empty.status).toBe(200);
    expect(headersOf(empty)).toEqual([]);
    const json = respondDeno('{"ok":true}', 201, { 'content-type': 'application/json', 'x-id': '1' });
    expect(json.status).toBe(201);
    expect(headersOf(json)).toEqual(headersOf(respondChecked('{"ok":true}', 201, { 'content-type': 'application/json', 'x-id': '1' })));
    expect(await json.text()).toBe('{"ok":true}');
  });
});
