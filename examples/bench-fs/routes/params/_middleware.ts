// The schema check runs as middleware for /params, the file-routes place for per-route middleware.

import { paramsSchema } from '../../../../bench/shared/schema.ts';
import { validate } from '../../../../src/index.ts';

export default validate('json', paramsSchema);
