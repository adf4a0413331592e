import { COMPILED_FORMAT, COMPILED_VERSION, type CompiledViews, type ViewAst } from './ast.ts';
import { ViewEngine } from './engine.ts';
import { lenientFilterTable } from './filters.ts';
import { resolveLimits, type ViewLimits } from './limits.ts';
import { normalizeName } from './names.ts';
import { parseView } from './parse.ts';

/**
 * Parses a set of views into the pre-compiled module form, checking that
 * every include and layout resolves. Throws the first ViewError. Filter names are checked by
 * createViews when it loads the module, against the filters the app gives it.
 *
 * @example
 * const compiled = precompile({ 'hello.dve': 'Hello {{ name | upper }}.' });
 * createViews({ compiled }).renderSync('hello', { name: 'Ada' }); // 'Hello ADA.'
 */
export function precompile(templates: Record<string, string>, options: { ext?: string; limits?: Partial<ViewLimits> } = {}): CompiledViews {
  const ext = options.ext ?? '.dve';
  const limits = resolveLimits(options.limits);
  const views: Record<string, ViewAst> = {};
  for (const name of Object.keys(templates).sort()) {
    const n = normalizeName(name);
    if ('reason' in n) throw new TypeError(`views: bad view name ${JSON.stringify(name)}: ${n.reason}`);
    views[n.name] = parseView(templates[name]!, n.name, limits);
  }
  // Link every view once, so a missing include or an unknown block fails the build, not a request.
  const engine = new ViewEngine({ templates, ext, limits }, lenientFilterTable());
  for (const name of Object.keys(views)) engine.check(name);
  return { format: COMPILED_FORMAT, version: COMPILED_VERSION, ext, views };
}
