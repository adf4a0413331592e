// The form readers behind `c.req.formData()` and `c.req.form()`; validate('form') calls them too.
// With them, the Content-Type tests the body readers and validate() share.
import { BodyError } from '../core/errors.ts';

export type FormValue = string | File;

/** What the readers take from a request (RoveRequest has it). */
export interface FormSource {
  header(name: string): string | undefined;
  text(): Promise<string>;
  bytes(): Promise<Uint8Array>;
}

// One parse per request, kept for a second read (rove/csrf reads the token, then the handler the form).
const parsed = new WeakMap<FormSource, Promise<FormData>>();

/** The body as FormData (urlencoded or multipart); anything else answers 415. */
export function readFormData(req: FormSource): Promise<FormData> {
  let form = parsed.get(req);
  if (form !== undefined) return form;
  const type = req.header('content-type') ?? '';
  const media = mediaType(type);
  if (media === 'application/x-www-form-urlencoded') {
    // Parsed from the text by URLSearchParams (the same parser the Fetch spec uses), without a
    // second Response around the body: less than half the cost per form.
    form = req.text().then((t) => {
      const data = new FormData();
      new URLSearchParams(t).forEach((value, key) => data.append(key, value));
      return data;
    });
  } else if (media === 'multipart/form-data') {
    form = req.bytes().then(async (b) => {
      try {
        return await new Response(b as BodyInit, { headers: { 'content-type': type } }).formData();
      } catch {
        throw new BodyError('invalid', 400, 'Malformed form body');
      }
    });
  } else {
    // Refused before a byte of the body is read.
    form = Promise.reject(new BodyError('unsupported-type', 415, 'Expected a form body (urlencoded or multipart)'));
  }
  parsed.set(req, form);
  return form;
}

/**
 * The form as an object; repeated fields become arrays. The object has no prototype,
 * so a field named `__proto__` or `toString` is an own key like any other.
 */
export async function readForm(req: FormSource): Promise<Record<string, FormValue | FormValue[]>> {
  const data = await readFormData(req);
  const out: Record<string, FormValue | FormValue[]> = Object.create(null);
  data.forEach((value, key) => {
    const prev = Object.hasOwn(out, key) ? out[key] : undefined;
    if (prev === undefined) out[key] = value;
    else if (Array.isArray(prev)) prev.push(value);
    else out[key] = [prev, value];
  });
  return out;
}

/** The media type of a Content-Type value, lower-cased, without parameters. */
export function mediaType(contentType: string | null): string {
  if (contentType === null) return '';
  const semi = contentType.indexOf(';');
  return (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
}

export function isFormType(contentType: string | null): boolean {
  const type = mediaType(contentType);
  return type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data';
}

/** `application/json` or any `+json` type (`application/problem+json`). */
export function isJsonType(contentType: string | null): boolean {
  const type = mediaType(contentType);
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}
