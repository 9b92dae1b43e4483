/**
 * Entry of the page script. esbuild bundles this file into an IIFE string (__PAGE_SCRIPT__) that
 * the worker evaluates in chrome-relay's isolated world: the page cannot see or change anything
 * defined here, and we write nothing into the page's DOM or main world.
 *
 * Installing twice must be harmless (two concurrent calls may both find the API missing), and a
 * second install must not replace the first: its bindings are what the issued refs point at.
 */
import { createPageApi } from './api.js';
import type { PageApi } from './types.js';

const scope = globalThis as typeof globalThis & { __chromeRelay?: PageApi };
scope.__chromeRelay ??= createPageApi();
