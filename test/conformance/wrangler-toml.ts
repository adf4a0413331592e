// The few parts of a wrangler.toml that the test servers need, read without a TOML
// library: top-level main / compatibility_date / compatibility_flags, `[assets]`,
// `[[kv_namespaces]]` and `[[r2_buckets]]` bindings and `[vars]` (string values only).

export interface WranglerConfig {
  main: string;
  compatibilityDate: string;
  compatibilityFlags: string[];
  vars: Record<string, string>;
  kvNamespaces: string[];
  r2Buckets: string[];
  assets?: { directory: string; binding?: string; runWorkerFirst: boolean };
}

const KEY = /^\s*([A-Za-z_][\w]*)\s*=\s*(.+?)\s*$/;

function value(raw: string): unknown {
  const text = raw.replace(/\s+#.*$/, '');
  if (text === 'true' || text === 'false') return text === 'true';
  if (text.startsWith('"') || text.startsWith('[')) return JSON.parse(text);
  return text;
}

/** Parses the sections the conformance servers use; anything else is ignored. */
export function parseWrangler(toml: string): WranglerConfig {
  const sections: { name: string; entries: Record<string, unknown> }[] = [{ name: '', entries: {} }];
  for (const line of toml.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const header = /^\[\[?([\w.]+)\]\]?$/.exec(trimmed);
    if (header) {
      sections.push({ name: header[1]!, entries: {} });
      continue;
    }
    const kv = KEY.exec(line);
    if (kv) sections.at(-1)!.entries[kv[1]!] = value(kv[2]!);
  }
  const top = sections[0]!.entries;
  const assets = sections.find((s) => s.name === 'assets')?.entries;
  const vars: Record<string, string> = {};
  for (const [k, v] of Object.entries(sections.find((s) => s.name === 'vars')?.entries ?? {})) if (typeof v === 'string') vars[k] = v;
  return {
    main: String(top.main ?? 'worker.ts'),
    compatibilityDate: String(top.compatibility_date ?? '2025-01-01'),
    compatibilityFlags: Array.isArray(top.compatibility_flags) ? (top.compatibility_flags as string[]) : [],
    vars,
    kvNamespaces: sections.filter((s) => s.name === 'kv_namespaces').map((s) => String(s.entries.binding)),
    r2Buckets: sections.filter((s) => s.name === 'r2_buckets').map((s) => String(s.entries.binding)),
    ...(assets
      ? {
          assets: {
            directory: String(assets.directory ?? './public'),
            ...(typeof assets.binding === 'string' ? { binding: assets.binding } : {}),
            runWorkerFirst: assets.run_worker_first === true,
          },
        }
      : {}),
  };
}
