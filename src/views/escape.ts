const NEEDS_ESCAPE = /[&<>"']/;

/** Escapes & < > " ' for HTML text and attribute values. */
export function escapeHtml(s: string): string {
  // Most values need no escaping: one regex scan, no allocation.
  if (!NEEDS_ESCAPE.test(s)) return s;
  let out = '';
  let last = 0;
  for (let i = 0; i < s.length; i++) {
    let rep: string;
    switch (s.charCodeAt(i)) {
      case 38:
        rep = '&amp;';
        break;
      case 60:
        rep = '&lt;';
        break;
      case 62:
        rep = '&gt;';
        break;
      case 34:
        rep = '&quot;';
        break;
      case 39:
        rep = '&#39;';
        break;
      default:
        continue;
    }
    if (last !== i) out += s.slice(last, i);
    out += rep;
    last = i + 1;
  }
  return last === 0 ? out : out + s.slice(last);
}
