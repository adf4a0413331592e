// rove/timeout: a deadline on the handler, with a signal it can pass on.
export { timeout, timeoutSignal } from './timeout.ts';
