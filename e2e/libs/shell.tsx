/**
 * What every library fixture shares (e2e/libFixtures.ts bundles each page with it): mounting the app, and the page's
 * own record of what its widgets did, which the tests read through the DevTools observer (`window.record`).
 */
import type { ReactNode } from 'react';
import { createRoot } from 'react-dom/client';

interface Recorded {
  record: Record<string, unknown>;
}

const page = window as unknown as Recorded;
page.record = {};

/** Note what a widget did: `record(key, value)` sets it; the tests compare the whole record. */
export function record(key: string, value: unknown): void {
  page.record[key] = value;
}

/** Render the fixture's app into a fresh root at the end of the body. */
export function mount(app: ReactNode): void {
  const root = document.createElement('div');
  root.id = 'root';
  document.body.append(root);
  createRoot(root).render(app);
}
