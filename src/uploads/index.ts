// rove/uploads: multipart bodies read as they arrive, with limits that bound memory.
export { type MultipartFields, readMultipart } from './declared.ts';
export { DEFAULT_LIMITS, type UploadLimit, type UploadLimits } from './limits.ts';
export { type FieldPart, type FilePart, type Part, parts, type UploadContext } from './parts.ts';
