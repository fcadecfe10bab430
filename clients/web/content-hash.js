// content-hash.js: XXH64 (seed 0) of a record's UTF-8 bytes, the content hash change sets name records by, with
// BigInt arithmetic. Swift kit: ContentHash.

const MASK = (1n << 64n) - 1n;
const P1 = 0x9e3779b185ebca87n;
const P2 = 0xc2b2ae3d27d4eb4fn;
const P3 = 0x165667b19e3779f9n;
const P4 = 0x85ebca77c2b2ae63n;
const P5 = 0x27d4eb2f165667c5n;

/** @param {bigint} x @param {bigint} r */
const rotl = (x, r) => ((x << r) | (x >> (64n - r))) & MASK;
/** @param {bigint} acc @param {bigint} input */
const round = (acc, input) => (rotl((acc + input * P2) & MASK, 31n) * P1) & MASK;
/** @param {bigint} acc @param {bigint} v */
const mergeRound = (acc, v) => (((acc ^ round(0n, v)) * P1) + P4) & MASK;

const encoder = new TextEncoder();

/**
 * XXH64 (seed 0) of a string's UTF-8 bytes (or of bytes), as 16 lowercase hex digits.
 * @param {string | Uint8Array} input
 * @returns {string}
 */
export function xxh64Hex(input) {
  const b = typeof input === "string" ? encoder.encode(input) : input;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const n = b.length;
  let i = 0;
  let h;
  if (n >= 32) {
    let v1 = (P1 + P2) & MASK, v2 = P2, v3 = 0n, v4 = (0n - P1) & MASK;
    while (i + 32 <= n) {
      v1 = round(v1, view.getBigUint64(i, true));
      v2 = round(v2, view.getBigUint64(i + 8, true));
      v3 = round(v3, view.getBigUint64(i + 16, true));
      v4 = round(v4, view.getBigUint64(i + 24, true));
      i += 32;
    }
    h = (rotl(v1, 1n) + rotl(v2, 7n) + rotl(v3, 12n) + rotl(v4, 18n)) & MASK;
    h = mergeRound(mergeRound(mergeRound(mergeRound(h, v1), v2), v3), v4);
  } else {
    h = P5;
  }
  h = (h + BigInt(n)) & MASK;
  while (i + 8 <= n) {
    h = ((rotl(h ^ round(0n, view.getBigUint64(i, true)), 27n) * P1) + P4) & MASK;
    i += 8;
  }
  if (i + 4 <= n) {
    h = ((rotl(h ^ ((BigInt(view.getUint32(i, true)) * P1) & MASK), 23n) * P2) + P3) & MASK;
    i += 4;
  }
  while (i < n) {
    h = (rotl(h ^ ((BigInt(b[i]) * P5) & MASK), 11n) * P1) & MASK;
    i += 1;
  }
  h ^= h >> 33n;
  h = (h * P2) & MASK;
  h ^= h >> 29n;
  h = (h * P3) & MASK;
  h ^= h >> 32n;
  return h.toString(16).padStart(16, "0");
}

