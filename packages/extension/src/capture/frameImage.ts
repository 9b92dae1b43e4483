/**
 * Screencast frames as images in the service worker: decoded with createImageBitmap, cut, scaled and painted over
 * on an OffscreenCanvas, encoded again (both exist in MV3 service workers; PNG and JPEG both decode and encode there).
 */
import { RelayError } from '@chrome-relay/protocol';
import type { Rect } from '../page/blockedBoxes.js';
import { paintMasks } from './captureMask.js';

export type ImageFormat = 'png' | 'jpeg';

/** A frame as the screencast delivered it. */
export interface Frame {
  data: string;
  /** The frame's own encoding (a recording's frames are JPEG whatever format is asked for). */
  format: ImageFormat;
  /** CSS px → frame px (device pixel ratio times any downscale Chrome applied). */
  cssToFrame: number;
  /** The page scroll (CSS px) it was drawn at, when the screencast said. */
  scroll?: { x: number; y: number };
}

/** What to make of a frame: the part `source` (frame px) drawn at `width`×`height`, then `masks` (output px) filled. */
export interface Render {
  format: ImageFormat;
  quality: number | undefined;
  source: Rect;
  width: number;
  height: number;
  masks: readonly Rect[];
}

/** Decode, cut/scale, paint over, encode: one canvas pass; the answer is base64. */
export type RenderFrame = (frame: Pick<Frame, 'data' | 'format'>, render: Render) => Promise<string>;

export async function decode(data: string, format: ImageFormat): Promise<ImageBitmap> {
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  return createImageBitmap(new Blob([bytes], { type: `image/${format}` }));
}

/** The frame's size in its own pixels. */
export async function imageSize(data: string, format: ImageFormat): Promise<{ width: number; height: number }> {
  const bitmap = await decode(data, format);
  const size = { width: bitmap.width, height: bitmap.height };
  bitmap.close();
  return size;
}

export const offscreenRender: RenderFrame = async (frame, render) => {
  const bitmap = await decode(frame.data, frame.format);
  const canvas = new OffscreenCanvas(render.width, render.height);
  const context = canvas.getContext('2d');
  if (!context) {
    bitmap.close();
    throw new RelayError('internal_error', 'OffscreenCanvas 2d context is unavailable in the service worker.', { phase: 'act' });
  }
  const { source } = render;
  context.drawImage(bitmap, source.x, source.y, source.width, source.height, 0, 0, render.width, render.height);
  bitmap.close();
  paintMasks(context, render.masks);
  const blob = await canvas.convertToBlob({ type: `image/${render.format}`, ...(render.quality === undefined ? {} : { quality: render.quality / 100 }) });
  const out = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < out.length; i += 0x8000) binary += String.fromCharCode(...out.subarray(i, i + 0x8000));
  return btoa(binary);
};
