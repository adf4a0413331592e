/**
 * View names are paths relative to the views directory with `/` separators.
 * Returns the normalised name, or a reason why the name is refused. A name
 * can never point outside the directory: no absolute paths, no `..`, no
 * backslashes or drive letters.
 */
export function normalizeName(name: string): { name: string } | { reason: string } {
  if (typeof name !== 'string' || name.length === 0) return { reason: 'a view name must be a non-empty string' };
  if (name.length > 1024) return { reason: 'view name too long' };
  if (name.startsWith('/')) return { reason: 'view names are relative to the views directory, not absolute' };
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  if (/[\\:\0-\x1f]/.test(name)) return { reason: 'view names may not contain backslashes, colons or control characters' };
  const out: string[] = [];
  for (const segment of name.split('/')) {
    if (segment === '..') return { reason: "view names may not contain '..': they cannot leave the views directory" };
    if (segment === '' || segment === '.') {
      if (segment === '' && out.length > 0) return { reason: 'view names may not contain empty segments' };
      continue;
    }
    out.push(segment);
  }
  if (out.length === 0) return { reason: 'a view name must name a file' };
  return { name: out.join('/') };
}

/** The keys to try for a (normalised) name: the extension may be left out. */
export function candidates(name: string, ext: string): string[] {
  if (ext === '' || name.endsWith(ext)) return [name];
  return [name + ext, name];
}
