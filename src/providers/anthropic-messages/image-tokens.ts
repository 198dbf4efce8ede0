import type { ImageEstimateRequest } from '../definition.js';

/** Anthropic: width × height / 750, after scaling the long edge to at most 1568 px. */
export function anthropicImageTokens({ width, height }: { width: number; height: number }): number {
  const scale = Math.min(1, 1568 / Math.max(width, height));
  return Math.ceil((width * scale * (height * scale)) / 750);
}

export function anthropicImageEstimate(image: ImageEstimateRequest): number | undefined {
  return image.size ? anthropicImageTokens(image.size) : undefined;
}
