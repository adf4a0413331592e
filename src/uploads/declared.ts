// A declared multipart body (rove/contract's `request.multipart`) read as it streams: each file
// checked against its declaration and handed to the handler, the fields checked by their schema
// once the body has been read.
import type { FileSpec, MultipartSpec } from '../contract/types.ts';
import { BodyError } from '../core/errors.ts';
import type { InferOutput, StandardSchemaV1 } from '../core/validate.ts';
import { overLimit, type UploadLimits } from './limits.ts';
import { type FilePart, parts, type UploadContext } from './parts.ts';

/** The fields a declaration's schema gives, or the raw strings without one. */
export type MultipartFields<S extends MultipartSpec> = S['fields'] extends StandardSchemaV1 ? InferOutput<S['fields']> : Record<string, string | string[]>;

/**
 * Read a multipart body as `spec` declares it. Each file part goes to `onFile` as it arrives
 * (stream its `body` somewhere before returning); a file name `spec` does not list answers 400,
 * a type it does not allow 415, and a file over its `maxSize` 413. When the body has been read,
 * a missing required file answers 400, and the fields are checked by `spec.fields` (400 with
 * `errors` as validate() gives). Resolves with the checked fields.
 *
 * @example
 * const upload = route({ method: 'POST', path: '/photos', request: { multipart: {
 *   fields: z.object({ title: z.string() }),
 *   files: { photo: { maxSize: 10 << 20, types: ['image/png', 'image/jpeg'], required: true } },
 * } }, responses: { 201: Photo } });
 * implement(app, { upload }, { upload: async (c) => {
 *   const { title } = await readMultipart(c, upload.request.multipart, (file) => bucket.put(file.filename, file.body));
 *   return c.json({ title }, 201);
 * } });
 */
export async function readMultipart<S extends MultipartSpec>(
  c: UploadContext,
  spec: S,
  onFile: (file: FilePart) => unknown,
  limits: UploadLimits = {},
): Promise<MultipartFields<S>> {
  const largest = Math.max(0, ...Object.values(spec.files).map((f) => f.maxSize ?? 0));
  const bounds = largest > 0 && limits.maxFileSize === undefined ? { ...limits, maxFileSize: largest } : limits;
  const fields: Record<string, string | string[]> = {};
  const seen = new Set<string>();
  for await (const part of parts(c, bounds)) {
    if (part.kind === 'field') {
      const had = Object.hasOwn(fields, part.name) ? fields[part.name] : undefined;
      // defineProperty: a field named __proto__ is a key like any other.
      Object.defineProperty(fields, part.name, {
        value: had === undefined ? part.value : [...(Array.isArray(had) ? had : [had]), part.value],
        enumerable: true,
        writable: true,
        configurable: true,
      });
      continue;
    }
    const file = Object.hasOwn(spec.files, part.name) ? spec.files[part.name] : undefined;
    if (file === undefined) throw new BodyError('invalid', 400, `The body carries a file "${part.name}" the route does not declare`);
    if (file.types !== undefined && !typeAllowed(part.contentType, file.types)) {
      throw new BodyError('unsupported-type', 415, `The file "${part.name}" must be ${file.types.join(' or ')}`);
    }
    seen.add(part.name);
    await onFile(file.maxSize === undefined ? part : { ...part, body: capped(part.body, file) });
  }
  const missing = Object.entries(spec.files).filter(([name, f]) => f.required && !seen.has(name));
  if (missing.length > 0)
    throw new BodyError('invalid', 400, `The body lacks the file${missing.length > 1 ? 's' : ''} ${missing.map(([n]) => `"${n}"`).join(', ')}`);
  if (spec.fields === undefined) return fields as MultipartFields<S>;
  let result = spec.fields['~standard'].validate(fields);
  if (result instanceof Promise) result = await result;
  if (result.issues) {
    const errors = result.issues.map((i) => ({
      path: (i.path ?? []).map((p) => String(typeof p === 'object' && p !== null ? p.key : p)).join('.'),
      message: i.message,
    }));
    throw new BodyError('invalid', 400, 'Invalid multipart fields', { details: { errors } });
  }
  return result.value as MultipartFields<S>;
}

function typeAllowed(type: string, allowed: readonly string[]): boolean {
  const media = type.split(';')[0]!.trim().toLowerCase();
  return allowed.some((a) => (a.endsWith('/*') ? media.startsWith(a.slice(0, -1).toLowerCase()) : media === a.toLowerCase()));
}

/** `body`, erroring with the 413 once it passes the file's own `maxSize`. */
function capped(body: ReadableStream<Uint8Array>, file: FileSpec): ReadableStream<Uint8Array> {
  let size = 0;
  const max = file.maxSize!;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > max) controller.error(overLimit('maxFileSize', max));
        else controller.enqueue(chunk);
      },
    }),
  );
}
