import type { Handler } from '../../core/compose.ts';
import { state } from '../../core/context.ts';
import { named } from '../../core/named.ts';

/** Per-route body limit in bytes: `app.post('/upload', bodyLimit(10 * 1024 * 1024), handler)`. */
export function bodyLimit(bytes: number): Handler {
  if (!(bytes >= 0)) throw new RangeError('bodyLimit needs a byte count');
  const layer: Handler = (c, next) => {
    state.setBodyLimit(c, bytes);
    return next();
  };
  return named('bodyLimit', layer);
}
