/**
 * Rove views: a Handlebars-like template language (docs/views.md), parsed once
 * into an AST and compiled into closures. Web Standards only; the filesystem
 * loader lives in adapters/shared/views-fs.ts.
 */

export type { CompiledViews, ViewAst } from './ast.ts';
export type { ViewEvent, ViewRenderer, ViewSource, Views, ViewsOptions } from './engine.ts';
export { createViews } from './engine.ts';
export type { ViewErrorKind } from './errors.ts';
export { ViewError } from './errors.ts';
export { escapeHtml } from './escape.ts';
export type { ViewFilter } from './filters.ts';
export type { ViewLimits } from './limits.ts';
export { DEFAULT_LIMITS } from './limits.ts';
export { precompile } from './precompile.ts';
export { SafeHtml, safe } from './safe.ts';
