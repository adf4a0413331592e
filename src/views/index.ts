/**
 * Rove views: a Handlebars-like template language (see VIEWS.md), parsed once
 * into an AST and compiled into closures. Web Standards only; the filesystem
 * loader lives in adapters/views-fs.ts.
 */
export { createViews } from './engine.ts';
export type { ViewEvent, ViewRenderer, Views, ViewsOptions, ViewSource } from './engine.ts';
export { ViewError } from './errors.ts';
export type { ViewErrorKind } from './errors.ts';
export { DEFAULT_LIMITS } from './limits.ts';
export type { ViewLimits } from './limits.ts';
export type { CompiledViews, ViewAst } from './ast.ts';
export { precompile } from './precompile.ts';
export { escapeHtml } from './escape.ts';
