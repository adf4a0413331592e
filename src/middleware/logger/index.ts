// rove/logger: one line per request, from the app's event bus.
export { formatLine, type LoggerOptions, logger } from './logger.ts';
