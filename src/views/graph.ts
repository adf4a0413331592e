// A view's include graph: every include and layout tag linked to the view it names, level by
// level, then checked (each block given to a layout names one of its slots) and marked linked.
import type { ViewAst } from './ast.ts';
import type { CompiledView, Dependency, Linked } from './compile.ts';
import { positioned } from './engine-errors.ts';

/** A loaded view in the engine's cache. Updated in place when its source changes, so links stay valid. */
export interface Entry extends Linked {
  key: string;
  source: string | ViewAst;
  compiled: CompiledView;
  /** Every view it includes is loaded and linked. */
  linked: boolean;
}

/** The include or layout tag that asked for a view. */
export interface From {
  from: Entry;
  dep: Dependency;
}

/**
 * Links `top` and every view it reaches, finding each through `resolve` (which throws when a view
 * is missing), checks the graph's layouts and returns `top`.
 *
 * @example
 * const top = linkGraph(entry, (name, from) => lookUp(name, from));
 */
export function linkGraph(top: Entry, resolve: (name: string, from: From) => Entry): Entry {
  const graph = [top];
  const seen = new Set(graph);
  for (let i = 0; i < graph.length; i++) {
    for (const dep of graph[i]!.compiled.deps) {
      const target = resolve(dep.name, { from: graph[i]!, dep });
      dep.link.target = target;
      if (!seen.has(target)) {
        seen.add(target);
        graph.push(target);
      }
    }
  }
  checkLayouts(graph);
  return top;
}

/**
 * `linkGraph` for views a reader loads: the dependencies of each view are looked up together.
 *
 * @example
 * const top = await linkGraphAsync(entry, (name, from) => load(name, from));
 */
export async function linkGraphAsync(top: Entry, resolve: (name: string, from: From) => Promise<Entry>): Promise<Entry> {
  const graph = [top];
  const seen = new Set(graph);
  for (let i = 0; i < graph.length; i++) {
    const from = graph[i]!;
    const targets = await Promise.all(from.compiled.deps.map((dep) => resolve(dep.name, { from, dep })));
    from.compiled.deps.forEach((dep, j) => {
      const target = targets[j]!;
      dep.link.target = target;
      if (!seen.has(target)) {
        seen.add(target);
        graph.push(target);
      }
    });
  }
  checkLayouts(graph);
  return top;
}

/** Every block given to a layout must name a slot of that layout (or of a view it includes). */
function checkLayouts(graph: Entry[]): void {
  for (const entry of graph) {
    for (const dep of entry.compiled.deps) {
      if (dep.kind !== 'layout' || dep.blocks === undefined || dep.blocks.length === 0) continue;
      const slots = slotsOf(dep.link.target as Entry);
      for (const block of dep.blocks) {
        if (!slots.has(block.name)) {
          const known = slots.size > 0 ? ` (it has: ${[...slots].join(', ')})` : ' (it has none)';
          throw positioned(entry, block.at, 'syntax', `block "${block.name}" names no slot of layout ${dep.name}${known}`);
        }
      }
    }
  }
  for (const e of graph) e.linked = true;
}

function slotsOf(layout: Entry): Set<string> {
  const out = new Set<string>();
  const seen = new Set<Entry>();
  const visit = (e: Entry) => {
    if (seen.has(e)) return;
    seen.add(e);
    for (const s of e.compiled.slots) out.add(s);
    for (const d of e.compiled.deps) if (d.kind === 'include' && d.link.target !== null) visit(d.link.target as Entry);
  };
  visit(layout);
  return out;
}
