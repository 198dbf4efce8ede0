import type { ImageEstimateRequest } from '../definition.js';

/** Gemini: 258 when both sides are at most 384 px, else 258 per 768-px tile. */
export function geminiImageTokens({ width, height }: { width: number; height: number }): number {
  if (width <= 384 && height <= 384) return 258;
  return 258 * Math.ceil(width / 768) * Math.ceil(height / 768);
}

export function geminiImageEstimate(image: ImageEstimateRequest): number | undefined {
  return image.size ? geminiImageTokens(image.size) : undefined;
}
