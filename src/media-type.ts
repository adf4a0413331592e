// Content-Type tests shared by the body readers and validate().

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
