// bodyLimit: a per-route body limit (re-exported by the core entry, 'rove').
export { bodyLimit } from './body-limit.ts';
