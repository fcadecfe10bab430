// Types of content-hash.js (checked by `tsc --strict` in `make test`; layout-client.d.ts re-exports them all).

/** XXH64 (seed 0) of a string's UTF-8 bytes (or of bytes), as 16 lowercase hex digits. */
export declare function xxh64Hex(input: string | Uint8Array): string;
