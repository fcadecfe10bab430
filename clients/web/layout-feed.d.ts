// Types of layout-feed.js (checked by `tsc --strict` in `make test`; layout-client.d.ts re-exports them all).

export interface LayoutFeedOptions {
  /** Every record the feed shows, with its content hash. */
  onRecord(text: string, hash: string): void;
  /** An interrupted stream (EventSource reconnects by itself), a failed fetch or a malformed change set. */
  onError?(error: Error): void;
  /** For tests and non-browser runtimes. */
  EventSource?: new (url: string) => {
    readonly readyState: number;
    addEventListener(type: string, listener: (event: { data: string }) => void): void;
    close(): void;
  };
  fetch?: (url: string, init?: { headers?: Record<string, string> }) => Promise<{ status: number; text(): Promise<string> }>;
}

/** Follows one page through a layout-worker gateway: record, then change sets applied as they arrive. */
export declare class LayoutFeed {
  constructor(gateway: string, key: string, options: LayoutFeedOptions);
  /** The feed of the layout a row's `navigate` action leads to (its target is the key); null for another kind. */
  static opening(gateway: string, action: { kind: string; target: string }, options: LayoutFeedOptions): LayoutFeed | null;
  /** The record held, and its hash (null before the first). */
  readonly text: string | null;
  readonly hash: string | null;
  start(): this;
  close(): void;
  /** Fetches the record again (done by the feed itself when a change set does not apply). */
  refetch(): Promise<void>;
}
