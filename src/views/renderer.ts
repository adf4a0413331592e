import type { ViewError } from './errors.ts';

/** What a views engine reports while someone listens (the app forwards these as `view:*` events). */
export type ViewEvent =
  | { kind: 'view:compiled'; metadata: { view: string; ms: number } }
  | { kind: 'view:rendered'; metadata: { view: string; ms: number; size: number; stream: boolean } }
  | {
      kind: 'view:error';
      /** The view's name and position; `message` never holds data values. */
      metadata: { view: string; errorKind: ViewError['kind']; line?: number; column?: number; message: string; error: ViewError };
    };

export type ViewEventKind = ViewEvent['kind'];
export const VIEW_EVENT_KINDS: readonly ViewEventKind[] = ['view:compiled', 'view:rendered', 'view:error'];

/** What `c.render` needs from a views engine (`createViews` from rove/views provides it). */
export interface ViewRenderer {
  render(name: string, data?: unknown): Promise<string>;
  /** UTF-8 bytes of the same output as render(). */
  stream(name: string, data?: unknown): ReadableStream<Uint8Array>;
  /** Optional: the output at once when the view is already loaded, else undefined (then `render` loads it). */
  renderReady?(name: string, data?: unknown): string | undefined;
  /** Optional: receives view events while the app has listeners for them (undefined to stop). */
  observe?(sink: ((event: ViewEvent) => void) | undefined): void;
  /** Optional: the app hands its event bus over once (`new App({ views })`), to report view events to it. */
  attach?(events: ViewEventBus): void;
}

/** What a views engine sees of the app's event bus. */
export interface ViewEventBus {
  has(kind: ViewEventKind): boolean;
  emit(kind: ViewEventKind, metadata: any): void;
  /** Calls `fn` now and whenever listeners come or go. */
  watch(fn: () => void): void;
}
