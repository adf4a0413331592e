// rove/request-id: an X-Request-Id on every response.
export { type RequestIdOptions, requestId } from './request-id.ts';
