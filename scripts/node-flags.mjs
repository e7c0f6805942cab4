// How the server and Hub run: a 64 MB young generation. Each call leaves ~50 KB of short-lived
// garbage (HTTP, pg rows, JSON); with V8's default 16 MB the young generation is swept 13 times a
// second at 2,000 calls a second, and those pauses were the members list's p99 (18 ms → 3 ms,
// `npm run bench`). It costs up to ~100 MB more memory.
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=64'];
