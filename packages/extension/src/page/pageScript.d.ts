/** src/injected/index.ts bundled as an IIFE; injected by build.mjs through esbuild `define`. */
declare const __PAGE_SCRIPT__: string;
