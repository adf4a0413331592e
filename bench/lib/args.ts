// The command-line lists the bench's runners take (--runtimes node,deno): one reading for all.

/**
 * The ids `given` picks from `known`, in `known`'s order, so that reports line up whatever order
 * the flag used; none given, or `all`, picks every one. An unknown id throws, naming the known ones.
 *
 * @example
 * pickList('runtime', 'deno,node', ['node', 'deno', 'bun']); // ['node', 'deno']
 */
export function pickList<T extends string>(what: string, given: string | readonly string[] | undefined, known: readonly T[]): T[] {
  const ids = typeof given === 'string' ? given.split(',').filter(Boolean) : (given ?? []);
  if (ids.length === 0 || (ids.length === 1 && ids[0] === 'all')) return [...known];
  for (const id of ids) if (!known.includes(id as T)) throw new Error(`unknown ${what} "${id}" (known: ${known.join(', ')})`);
  return known.filter((id) => ids.includes(id));
}
