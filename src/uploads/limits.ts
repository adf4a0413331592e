// The bounds of one multipart body, and the refusals that name them.
import { BodyError } from '../core/errors.ts';

/** Per route: what one multipart body may hold. Every limit has a finite default. */
export interface UploadLimits {
  /** Bytes of each file (default 50 MiB). */
  maxFileSize?: number;
  /** Bytes of the whole body, as received: parts, headers and boundaries (default 50 MiB). */
  maxTotalSize?: number;
  /** Parts, fields and files together (default 100). */
  maxParts?: number;
  /** File parts (default 10). */
  maxFiles?: number;
  /** Bytes of each field's value (default 64 KiB): fields are held in memory as strings. */
  maxFieldSize?: number;
  /** Bytes of each part's headers (default 8 KiB; the parser stops any at 16 KiB or 100 lines). */
  maxHeaderSize?: number;
}

/** The name of a limit, as the 413's problem+json says it. */
export type UploadLimit = keyof UploadLimits;

const MiB = 1024 * 1024;

export const DEFAULT_LIMITS: Required<UploadLimits> = {
  maxFileSize: 50 * MiB,
  maxTotalSize: 50 * MiB,
  maxParts: 100,
  maxFiles: 10,
  maxFieldSize: 64 * 1024,
  maxHeaderSize: 8 * 1024,
};

/** The parser's own bound on a part's headers, which no option raises. */
export const PARSER_HEADER_BOUND = 16 * 1024;

/** `limits` over the defaults; a limit that is not a positive integer throws. */
export function resolveLimits(limits: UploadLimits = {}): Required<UploadLimits> {
  const out = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as UploadLimit[]) {
    const value = limits[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`uploads: ${key} must be a positive integer, not ${String(value)}`);
    out[key] = value;
  }
  if (out.maxHeaderSize > PARSER_HEADER_BOUND) throw new TypeError(`uploads: maxHeaderSize is at most ${PARSER_HEADER_BOUND} (the parser's own bound)`);
  return out;
}

/** 413 problem+json naming the limit the body went over, and its value. */
export function overLimit(limit: UploadLimit, max: number): BodyError {
  const what: Record<UploadLimit, string> = {
    maxFileSize: `A file is larger than ${max} bytes`,
    maxTotalSize: `The upload is larger than ${max} bytes`,
    maxParts: `The upload has more than ${max} parts`,
    maxFiles: `The upload has more than ${max} files`,
    maxFieldSize: `A field is larger than ${max} bytes`,
    maxHeaderSize: `A part's headers are larger than ${max} bytes`,
  };
  return new BodyError('too-large', 413, what[limit], { headers: { connection: 'close' }, details: { limit, max } });
}

/** 400 for a body that is not well-formed multipart. */
export function malformed(message: string): BodyError {
  return new BodyError('invalid', 400, message, { headers: { connection: 'close' } });
}
