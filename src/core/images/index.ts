/**
 * Images in messages: loading and sniffing, their parts and token cost, and the history a text-only model is sent.
 * This file is the folder's public surface: other folders import it, never its modules (eslint.config.js).
 */
export { checkImagesFor, loadImage, messageWithImages } from './attach-images.js';
export type { ImageInput } from './attach-images.js';
export { sniffImageType } from './image-bytes.js';
export { imageParts, isImageTag, withImagesNamed } from './image-parts.js';
export { OPENAI_LOW_DETAIL_TOKENS, UNKNOWN_IMAGE_TOKENS, imageTokens } from './image-tokens.js';
export { itemsForModel, toolsForModel } from './text-only-history.js';
