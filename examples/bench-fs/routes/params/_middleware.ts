// The schema check runs as middleware for /params, the file-routes place for per-route middleware.
import { validate } from '../../../../src/index.ts'
import { paramsSchema } from '../../../../bench/shared/schema.ts'

export default validate('json', paramsSchema)
