/** Response headers kept as a plain object until a real `Headers` is needed. Names are lower-case. */
export type HeaderRecord = Record<string, string | string[]>;

export function toHeadersInit(headers: HeaderRecord): HeadersInit {
  let multi = false;
  for (const k in headers) if (typeof headers[k] !== 'string') multi = true;
  if (!multi) return headers as Record<string, string>;
  const pairs: [string, string][] = [];
  for (const k in headers) {
    const v = headers[k];
    if (typeof v === 'string') pairs.push([k, v]);
    else for (const one of v) pairs.push([k, one]);
  }
  return pairs;
}

/** Add header values to a real Response (its own values win), copying it first if its headers are immutable. */
export function withHeaders(res: Response, extra: HeaderRecord): Response {
  let out = res;
  try {
    apply(out.headers, extra);
  } catch {
    out = new Response(res.body, res);
    apply(out.headers, extra);
  }
  return out;
}

function apply(target: Headers, extra: HeaderRecord): void {
  for (const k in extra) {
    const v = extra[k];
    if (typeof v === 'string') {
      if (!target.has(k)) target.set(k, v);
    } else for (const one of v) target.append(k, one);
  }
}
