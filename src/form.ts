/**
 * rove/form: `c.req.formData()` and `c.req.form()`. Loading this module puts both methods
 * on every request (as rove/views puts `c.render` on every context), so apps that never
 * read a form do not carry them. rove/csrf loads it; `validate('form')` reads forms without it.
 *
 * @example
 * import 'rove/form';
 * app.post('/notes', async (c) => c.json(await c.req.form()));
 */
import { readForm, readFormData } from './form-body.ts';
import { RoveRequest } from './request.ts';

/** The same readers as functions: `await readForm(c.req)`. */
export { readForm, readFormData };

const methods = {
  formData(this: RoveRequest<any>) {
    return readFormData(this);
  },
  form(this: RoveRequest<any>) {
    return readForm(this);
  },
};
for (const [name, value] of Object.entries(methods)) {
  if (!Object.hasOwn(RoveRequest.prototype, name)) Object.defineProperty(RoveRequest.prototype, name, { configurable: true, writable: true, value });
}
